/* Warp-stall reasons through CUPTI's PC Sampling API (cupti_pcsampling.h), continuous mode:
 * while a context's kernels run, each SM sub-partition samples one warp every 2^period
 * cycles and says why it was not issuing (or that it issued). Samples come back keyed by
 * cubin CRC, function and PC offset, not by launch (continuous mode's correlation id is 0),
 * and are added up here per instruction and reason.
 *
 * What the probes on an H200 found (bench/README.md, "PC sampling beside the other
 * collectors", and ../shared/cupti-probe/pcsamp_probe.cu):
 * - kernel time with sampling on is 0.993-1.005x of off from 2^8 to 2^16 cycles;
 * - PC sampling shares no context with the range profiler or SASS patching: where either
 *   ran, every sample comes back non-user, without a PC. So a sampler runs in a process
 *   that collects nothing else (exec --stalls);
 * - at 2^5 cycles 73 % of the samples were dropped, and after the hardware buffer overflowed
 *   every later GetData failed: the sampler counts dropped samples, the buffer's overflow
 *   and failed drains, and stops draining after GP_PC_SAMPLER_MAX_FAILURES in a row.
 *
 * One sampler per context. Not thread-safe: its caller serialises drain and close (the
 * injected library's sampler lock). Counters layer: never prints, never exits. */
#ifndef GPUPROF_PC_SAMPLER_H
#define GPUPROF_PC_SAMPLER_H

#include <cuda.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct gp_pc_sampler gp_pc_sampler;

/* PCs one GetData call hands back at most; a drain calls it until none remain. */
#define GP_PC_SAMPLER_PCS_PER_CALL 4096
/* Failed GetData calls in a row after which a sampler stops draining. */
#define GP_PC_SAMPLER_MAX_FAILURES 3

/* What the sampling saw over the sampler's life, CUPTI's counts added up. */
typedef struct {
    uint64_t samples;      /* every sample: the program's kernels', others', dropped ones */
    uint64_t dropped;      /* lost by the hardware to back-pressure or overflow */
    uint64_t non_user;     /* in kernels that are not the program's (CUPTI gives no PC) */
    bool buffer_full;      /* the hardware buffer filled: PCs of that time were lost */
    unsigned failures;     /* GetData calls that failed */
} gp_pc_sampler_totals;

/* One instruction's samples, per reason in gp_pc_sampler_reasons' order. */
typedef struct {
    uint64_t code;         /* its cubin's CRC */
    const char *function;  /* the mangled name */
    uint32_t pc;           /* offset in the function */
    const uint64_t *samples;
} gp_pc_sample;

/* Enable and configure PC sampling on the context (every stall reason, continuous mode, a
 * sample every 2^period_log2 cycles, 5 to 31). Nothing held on failure (the error says why:
 * no permission, a device without PC sampling, sampling already enabled there). */
int gp_pc_sampler_open(CUcontext ctx, unsigned period_log2, gp_pc_sampler **out);
/* Take what CUPTI has decoded so far (GetData until nothing remains); GP_OK when nothing
 * failed. Cheap when there is nothing: one call. */
int gp_pc_sampler_drain(gp_pc_sampler *s);
/* Disable sampling (CUPTI then hands over what it still held): the samples stay readable
 * until gp_pc_sampler_free. */
int gp_pc_sampler_close(gp_pc_sampler *s);
/* The reasons' names, as CUPTI gives them (smsp__pcsamp_warps_issue_stalled_long_scoreboard,
 * ..._long_scoreboard_not_issued, ...). */
size_t gp_pc_sampler_reasons(const gp_pc_sampler *s, const char *const **names);
unsigned gp_pc_sampler_period(const gp_pc_sampler *s);
gp_pc_sampler_totals gp_pc_sampler_counted(const gp_pc_sampler *s);
/* The next sampled instruction from *cursor (0 to begin); false after the last. */
bool gp_pc_sampler_next(const gp_pc_sampler *s, size_t *cursor, gp_pc_sample *out);
/* Close if still open, and free everything. NULL: nothing. */
void gp_pc_sampler_free(gp_pc_sampler *s);

#endif
