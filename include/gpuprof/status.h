/* Status codes and the one error channel of gpuprof.
 *
 * Library code never prints and never exits: a failing function records one message with
 * gp_fail() (or gp_fail_cuda() through GP_CUDA) and returns the exit code it implies; the
 * caller passes that code up unchanged, and main() prints gp_error() and exits with it. */
#ifndef GPUPROF_STATUS_H
#define GPUPROF_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Longest message (and hint) the channel keeps; longer ones are cut. */
#define GP_MESSAGE_LEN 512

enum {
    GP_OK = 0,
    GP_ERR_RUNTIME = 1,   /* CUDA or CUPTI failure, wrong result, I/O */
    GP_ERR_USAGE = 2,     /* bad command line, decided before any GPU work */
    GP_ERR_NODEVICE = 3   /* no usable CUDA device or driver */
};

/* Record a message (printf format) and return code. The newest message wins. */
int gp_fail(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Record a failed CUDA runtime call; returns GP_ERR_NODEVICE for "no device/driver" errors,
 * GP_ERR_RUNTIME otherwise. */
int gp_fail_cuda(int cuda_error, const char *call, const char *file, int line);
/* Optional second line for the user: what to do about the error. */
void gp_set_hint(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
const char *gp_error(void);
const char *gp_hint(void);
void gp_clear_error(void);

#ifdef __cplusplus
}
#endif

/* Check a CUDA runtime call; on failure record it and return the implied exit code. */
#define GP_CUDA(call)                                                               \
    do {                                                                            \
        int gp_cuda_err_ = (int)(call);                                             \
        if (gp_cuda_err_ != 0)                                                      \
            return gp_fail_cuda(gp_cuda_err_, #call, __FILE__, __LINE__);           \
    } while (0)

/* A release (cudaFree, cudaEventDestroy) on a path that carries `status`: its failure becomes
 * the status where none is yet, so that an earlier error stays the cause reported. */
#define GP_CUDA_RELEASE(status, call)                                               \
    do {                                                                            \
        int gp_release_err_ = (int)(call);                                          \
        if (gp_release_err_ != 0 && (status) == GP_OK)                              \
            (status) = gp_fail_cuda(gp_release_err_, #call, __FILE__, __LINE__);    \
    } while (0)

/* After every kernel launch: configuration errors surface here, not later. */
#define GP_LAUNCHED() GP_CUDA(cudaGetLastError())

/* Propagate a non-zero status. */
#define GP_TRY(expr)                                                                \
    do {                                                                            \
        int gp_try_rc_ = (expr);                                                    \
        if (gp_try_rc_ != 0)                                                        \
            return gp_try_rc_;                                                      \
    } while (0)

#endif
