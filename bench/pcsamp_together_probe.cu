// pcsamp_together_probe: what can run beside CUPTI's PC sampling in ONE CUDA context, and in
// which order (issue 47, "Probe first"). Stall reasons per line are to come from the PC
// Sampling API (cupti_pcsampling.h: continuous mode, start/stop control) during the program's
// own launches. gpuprof drives three other collectors on the same contexts: the range profiler
// (src/counters/profiler.c: per-launch counters, exec's rotation), PM sampling
// (src/counters/pm_sampler.c: graph nodes' DRAM bytes) and the SASS Metrics API
// (src/counters/sass_source.c: --source). Whether PC sampling can stay on beside each of them,
// or must take turns with it, and who must be enabled first, decides the design. What is known
// already (bench/README.md, docs/replay-notes.md): PM sampling and the range profiler exclude
// each other on a device; SASS metrics count 0 while a range profiler is enabled; after a PC
// sampling hardware-buffer overflow every later GetData failed (../shared/cupti-probe).
//
// Each case runs in a child process forked before any CUDA call (a fresh context: one case's
// failure, crash or hang cannot poison the next), under a time limit. It prints the result
// string and time of every enable/start/stop/disable, one FINDING line per answer (counter
// values against their exact expectation, PC samples with the stall mix, the program's
// output), and the run ends with a table of all cases. A failed CUDA or CUPTI call ends its
// case: the call and CUPTI's result string are printed, and the next case runs.
//
// The kernel is a copy of N floats, one per thread, 256 threads a block, so every count the
// cases check is fixed by its instructions: per launch N/32 global load instructions
// (smsp__sass_inst_executed_op_global_ld: SASS-patched by the range profiler) and N/8 load
// sectors (l1tex__t_sectors_pipe_lsu_mem_global_op_ld: a hardware counter; the two take two
// passes); N/32 stores and N/4 global sectors (SASS Metrics API); N*4 bytes read from DRAM (PM
// sampling; 256 MiB buffers, 5x the L2, so within 5 %). Each collector's "alone" case shows
// that it meets the expectation by itself, and p0 gives the samples a copy yields unhindered.
//
// Cases, in the order they run (`--list` prints them; arguments choose cases by id prefix):
//   p0        PC sampling alone: two windows, then disabled and enabled again.
//   1<m>...   PC sampling with the range profiler, m = u (auto range + user replay: exec's
//             rotation), k (auto range + kernel replay: replayed sets), r (user range + user
//             replay: one range around several launches); for each mode:
//     1<m>0   the range profiler alone.
//     1<m>a1  (a) both at once: PC sampling enabled and started, then a range-profiler session.
//     1<m>a2  (a) both at once, the other order: a range-profiler pass started, then PC
//             sampling enabled and started inside it (exec meets a new kernel mid-window).
//     1<m>b   (b) PC sampling while the range profiler is enabled and configured but no pass
//             runs; then the profiler's session with sampling enabled but stopped.
//     1<m>c   (c) PC sampling started and stopped between the range profiler's passes (user
//             replay) or sessions (kernel replay).
//     1<m>d   PC sampling disabled around the range profiler's session, enabled again after.
//     1<m>e   the range profiler disabled around PC sampling (gp_profiler_suspend) and enabled
//             anew: the fully time-sliced fallback.
//   2p0 2a1 2a2 2c 2d   the same questions for PM sampling: alone; PC sampling first; PM first;
//             both enabled, windows alternating; PC sampling disabled around it.
//   3s0 3a1 3a2 3c 3d   the same for the SASS Metrics API (one lazily patched launch; a CUPTI
//             subscriber on the resource domain, as --source has).
//   p1        p0 with that subscriber.
//
// Build (bench/pcsamp_together_probe.sh builds and runs it, its log in $OUT):
//   nvcc -O2 -arch=sm_90 -o pcsamp_together_probe bench/pcsamp_together_probe.cu -lcupti -lcuda
// Run:  pcsamp_together_probe [--list] [CASE-PREFIX...]
// Environment: PCS_PERIOD (log2 cycles, default 12), PROBE_LOG2N (elements, default 26),
// PROBE_BUDGET_S (all cases, default 130; later cases are skipped), PROBE_CASE_S (one case,
// default 15), PROBE_SUBSCRIBE=1 (every case with the subscriber: gpuprof exec always has one).
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#include <cupti_pcsampling.h>
#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <algorithm>
#include <map>
#include <string>
#include <vector>

// ---- settings -------------------------------------------------------------------------------

static int g_log2n = 26;        // elements copied per launch
static size_t g_n;
static unsigned g_period = 12;  // PC sampling period, log2 of cycles: ~12,500 samples per copy
static const int LAUNCHES = 2;  // launches per PC-sampling window and per range-profiler pass

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int env_int(const char *name, int fallback)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : fallback;
}

// ---- the child's output: log lines on stdout, table fields on a pipe to the parent ----------

static const char *g_id = "main"; // the running case
static int g_pipe = -1;
static bool g_bad;                // a check failed: values differ, or a window had no samples
// Tags numbering a case's PC-sampling windows (W1, W2, ...) and its checks of the other
// collectors (RP1, PM1, SASS1, ...): the FINDING lines and the table use the same.
static int g_windows, g_rp_checks, g_pm_checks, g_sass_checks;

static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("[%s] ", g_id);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
    fflush(stdout);
}

#define finding(...) say("FINDING " __VA_ARGS__)

// One field of the case's table row: "key value" lines the parent collects.
static void tell(const char *key, const char *fmt, ...)
{
    if (g_pipe < 0)
        return;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    for (char *c = buf; *c; c++)
        if (*c == '\n')
            *c = ' ';
    dprintf(g_pipe, "%s %s\n", key, buf);
}

// What the case is doing: the parent shows the last one when the case crashes or hangs.
static void step(const char *what)
{
    tell("step", "%s", what);
}

static const char *result_string(CUptiResult r)
{
    const char *s = NULL;
    cuptiGetResultString(r, &s);
    return s ? s : "(no string)";
}

// Leaves without exit handlers: CUDA's and CUPTI's teardown is no part of the question, and
// in a broken state it could hang.
[[noreturn]] static void leave(int code)
{
    fflush(stdout);
    fflush(stderr);
    _exit(code);
}

// The function's name in a call's text: "cuptiPCSamplingEnable(&p)" -> "cuptiPCSamplingEnable".
static std::string called(const char *call)
{
    return std::string(call, strcspn(call, "("));
}

[[noreturn]] static void call_failed(const char *call, const char *result)
{
    tell("fail", "%s -> %s", called(call).c_str(), result);
    tell("verdict", "CALL-FAILED");
    say("case ends here: %s failed with %s", called(call).c_str(), result);
    leave(3);
}

static void cupti_done(CUptiResult r, const char *call, double ms, bool verbose)
{
    if (r == CUPTI_SUCCESS) {
        if (verbose)
            say("  %-44s CUPTI_SUCCESS (%.1f ms)", called(call).c_str(), ms);
        return;
    }
    say("  %-44s %s (%.1f ms)", called(call).c_str(), result_string(r), ms);
    call_failed(call, result_string(r));
}

// Every CUPTI call goes through Q (quiet when it succeeds) or V (prints its result and time).
#define CUPTI_CALL(verbose, call)                                                              \
    do {                                                                                       \
        const double t0_ = now_ms();                                                           \
        const CUptiResult r_ = (call);                                                         \
        cupti_done(r_, #call, now_ms() - t0_, verbose);                                        \
    } while (0)
#define Q(call) CUPTI_CALL(false, call)
#define V(call) CUPTI_CALL(true, call)

#define CK(call)                                                                               \
    do {                                                                                       \
        const cudaError_t e_ = (call);                                                         \
        if (e_ != cudaSuccess) {                                                               \
            say("  %s -> %s", #call, cudaGetErrorName(e_));                                    \
            call_failed(#call, cudaGetErrorString(e_));                                        \
        }                                                                                      \
    } while (0)

// ---- the work ---------------------------------------------------------------------------------

__global__ void copy_kernel(float *out, const float *in, size_t n)
{
    const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

__global__ void fill_kernel(float *p, size_t n)
{
    const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = (float)(i & 1023) + 0.5f;
}

__global__ void compare_kernel(const float *a, const float *b, size_t n, unsigned long long *bad)
{
    const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n && a[i] != b[i])
        atomicAdd(bad, 1ull);
}

static bool g_describe_device; // set by the parent for the first case's child
static float *g_in, *g_out;
static unsigned long long *g_mismatches;
static CUcontext g_ctx;
static long g_execs;   // copy kernels executed so far, replays included
static int g_replay = 1; // executions per launch: the passes inside a kernel-replay session

static void launches(int k)
{
    for (int i = 0; i < k; i++) {
        copy_kernel<<<(unsigned)(g_n / 256), 256>>>(g_out, g_in, g_n);
        CK(cudaGetLastError());
        g_execs += g_replay;
    }
}

static void on_resource(void *, CUpti_CallbackDomain, CUpti_CallbackId, const void *)
{
}

// The context, the buffers, and one launch before anything is enabled (the module is loaded,
// as in a program whose kernels ran before the collectors came). A subscriber on the resource
// domain, as gpuprof's --source (runner/source_lines.c) and exec have, where asked.
static void child_setup(bool subscribe)
{
    step("setup");
    if (subscribe) {
        CUpti_SubscriberHandle s;
        Q(cuptiSubscribe(&s, on_resource, NULL));
        Q(cuptiEnableDomain(1, s, CUPTI_CB_DOMAIN_RESOURCE));
    }
    CK(cudaSetDevice(0));
    CK(cudaFree(0));
    const CUresult cr = cuCtxGetCurrent(&g_ctx);
    if (cr != CUDA_SUCCESS || !g_ctx)
        call_failed("cuCtxGetCurrent", "no current context");
    if (g_describe_device) {
        cudaDeviceProp prop;
        CK(cudaGetDeviceProperties(&prop, 0));
        int driver = 0;
        CK(cudaDriverGetVersion(&driver));
        uint32_t cupti = 0;
        Q(cuptiGetVersion(&cupti));
        say("device %s, sm_%d%d, %d SMs, %.0f GiB; driver's CUDA %d, CUPTI API %u", prop.name,
            prop.major, prop.minor, prop.multiProcessorCount, prop.totalGlobalMem / 1073741824.0,
            driver, cupti);
    }
    CK(cudaMalloc(&g_in, g_n * sizeof(float)));
    CK(cudaMalloc(&g_out, g_n * sizeof(float)));
    CK(cudaMalloc(&g_mismatches, sizeof *g_mismatches));
    fill_kernel<<<(unsigned)(g_n / 256), 256>>>(g_in, g_n);
    CK(cudaGetLastError());
    launches(1);
    CK(cudaDeviceSynchronize());
    CK(cudaMemset(g_out, 0, g_n * sizeof(float)));
    CK(cudaDeviceSynchronize());
}

// The program's own result after everything: its output must equal its input.
static void verify_output(void)
{
    step("verify output");
    CK(cudaMemset(g_mismatches, 0, sizeof *g_mismatches));
    compare_kernel<<<(unsigned)(g_n / 256), 256>>>(g_out, g_in, g_n, g_mismatches);
    CK(cudaGetLastError());
    unsigned long long bad = 0;
    CK(cudaMemcpy(&bad, g_mismatches, sizeof bad, cudaMemcpyDeviceToHost));
    if (bad) {
        g_bad = true;
        tell("note", "output wrong in %llu elements", bad);
    }
    finding("program output after the case: %s (%llu of %zu elements differ)",
            bad ? "WRONG" : "correct", bad, g_n);
}

// ---- PC sampling (cupti_pcsampling.h), as the earlier probe ../shared/cupti-probe ran it ---------

static const size_t MAX_PCS = 4096;
static size_t g_nstall;
static std::vector<uint32_t> g_stall_index;
static std::vector<std::string> g_stall_name;
static CUpti_PCSamplingData g_pc_buffer; // configured: CUPTI fills it at each stop
static CUpti_PCSamplingData g_pc_get;    // what GetData hands back beyond it
static bool g_pcs_buffers;

struct PcStats {
    uint64_t total = 0, dropped = 0, non_user = 0, max_pc = 0;
    size_t pcs = 0;
    int hw_full = 0, get_failures = 0;
    CUptiResult get_result = CUPTI_SUCCESS;
    std::vector<uint64_t> per_reason;
    std::map<std::string, uint64_t> per_function;
};

static void alloc_pc_data(CUpti_PCSamplingData *d)
{
    memset(d, 0, sizeof *d);
    d->size = sizeof(CUpti_PCSamplingData);
    d->collectNumPcs = MAX_PCS;
    d->pPcData = (CUpti_PCSamplingPCData *)calloc(MAX_PCS, sizeof(CUpti_PCSamplingPCData));
    for (size_t i = 0; i < MAX_PCS; i++) {
        d->pPcData[i].size = sizeof(CUpti_PCSamplingPCData);
        d->pPcData[i].stallReason =
            (CUpti_PCSamplingStallReason *)calloc(g_nstall, sizeof(CUpti_PCSamplingStallReason));
    }
}

static void stall_reasons(void)
{
    CUpti_PCSamplingGetNumStallReasonsParams n = {};
    n.size = CUpti_PCSamplingGetNumStallReasonsParamsSize;
    n.ctx = g_ctx;
    n.numStallReasons = &g_nstall;
    Q(cuptiPCSamplingGetNumStallReasons(&n));
    g_stall_index.assign(g_nstall, 0);
    std::vector<char *> names(g_nstall);
    for (auto &p : names)
        p = (char *)calloc(CUPTI_STALL_REASON_STRING_SIZE, 1);
    CUpti_PCSamplingGetStallReasonsParams s = {};
    s.size = CUpti_PCSamplingGetStallReasonsParamsSize;
    s.ctx = g_ctx;
    s.numStallReasons = g_nstall;
    s.stallReasonIndex = g_stall_index.data();
    s.stallReasons = names.data();
    Q(cuptiPCSamplingGetStallReasons(&s));
    g_stall_name.clear();
    for (auto p : names) {
        const char *prefix = "smsp__pcsamp_warps_issue_stalled_";
        g_stall_name.push_back(strncmp(p, prefix, strlen(prefix)) ? p : p + strlen(prefix));
        free(p);
    }
}

static void pcs_set_attributes(void)
{
    CUpti_PCSamplingConfigurationInfo a[7] = {};
    a[0].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON;
    a[0].attributeData.stallReasonData.stallReasonCount = g_nstall;
    a[0].attributeData.stallReasonData.pStallReasonIndex = g_stall_index.data();
    a[1].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER;
    a[1].attributeData.samplingDataBufferData.samplingDataBuffer = &g_pc_buffer;
    a[2].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL;
    a[2].attributeData.enableStartStopControlData.enableStartStopControl = 1;
    a[3].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_OUTPUT_DATA_FORMAT;
    a[3].attributeData.outputDataFormatData.outputDataFormat =
        CUPTI_PC_SAMPLING_OUTPUT_DATA_FORMAT_PARSED;
    a[4].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SCRATCH_BUFFER_SIZE;
    a[4].attributeData.scratchBufferSizeData.scratchBufferSize = (size_t)64 << 20;
    a[5].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE;
    a[5].attributeData.collectionModeData.collectionMode =
        CUPTI_PC_SAMPLING_COLLECTION_MODE_CONTINUOUS;
    a[6].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
    a[6].attributeData.samplingPeriodData.samplingPeriod = g_period;
    CUpti_PCSamplingConfigurationInfoParams p = {};
    p.size = CUpti_PCSamplingConfigurationInfoParamsSize;
    p.ctx = g_ctx;
    p.numAttributes = 7;
    p.pPCSamplingConfigurationInfo = a;
    V(cuptiPCSamplingSetConfigurationAttribute(&p));
    for (int i = 0; i < 7; i++)
        if (a[i].attributeStatus != CUPTI_SUCCESS) {
            char what[96];
            snprintf(what, sizeof what, "cuptiPCSamplingSetConfigurationAttribute(attribute %d)",
                     (int)a[i].attributeType);
            call_failed(what, result_string(a[i].attributeStatus));
        }
}

// Enable on the context, and configure: continuous mode, start/stop control, the period.
static void pcs_enable(void)
{
    step("pcs enable");
    CUpti_PCSamplingEnableParams e = {};
    e.size = CUpti_PCSamplingEnableParamsSize;
    e.ctx = g_ctx;
    V(cuptiPCSamplingEnable(&e));
    if (!g_pcs_buffers) { // the first enable of the case: what CUPTI offers, before it is set
        CUpti_PCSamplingConfigurationInfo q = {};
        q.attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
        CUpti_PCSamplingConfigurationInfoParams p = {};
        p.size = CUpti_PCSamplingConfigurationInfoParamsSize;
        p.ctx = g_ctx;
        p.numAttributes = 1;
        p.pPCSamplingConfigurationInfo = &q;
        const CUptiResult r = cuptiPCSamplingGetConfigurationAttribute(&p); // only informs
        stall_reasons();
        say("PC sampling: %zu stall reasons; default period 2^%u cycles (%s), set to 2^%u",
            g_nstall, q.attributeData.samplingPeriodData.samplingPeriod, result_string(r),
            g_period);
        alloc_pc_data(&g_pc_buffer);
        alloc_pc_data(&g_pc_get);
        g_pcs_buffers = true;
    }
    step("pcs configure");
    pcs_set_attributes();
}

static void pcs_disable(void)
{
    step("pcs disable");
    CUpti_PCSamplingDisableParams d = {};
    d.size = CUpti_PCSamplingDisableParamsSize;
    d.ctx = g_ctx;
    V(cuptiPCSamplingDisable(&d));
}

static long g_pcs_execs0; // kernel executions when the window started

static void pcs_start(void)
{
    step("pcs start");
    CUpti_PCSamplingStartParams s = {};
    s.size = CUpti_PCSamplingStartParamsSize;
    s.ctx = g_ctx;
    V(cuptiPCSamplingStart(&s));
    g_pcs_execs0 = g_execs;
}

static void pcs_stop(void)
{
    step("pcs stop");
    CUpti_PCSamplingStopParams s = {};
    s.size = CUpti_PCSamplingStopParamsSize;
    s.ctx = g_ctx;
    V(cuptiPCSamplingStop(&s));
}

static void account(CUpti_PCSamplingData *d, PcStats &s)
{
    s.total += d->totalSamples;
    s.dropped += d->droppedSamples;
    s.non_user += d->nonUsrKernelsTotalSamples;
    s.hw_full |= d->hardwareBufferFull;
    s.pcs += d->totalNumPcs;
    s.per_reason.resize(g_nstall, 0);
    for (size_t p = 0; p < d->totalNumPcs && p < d->collectNumPcs; p++) {
        const CUpti_PCSamplingPCData &pc = d->pPcData[p];
        s.max_pc = std::max<uint64_t>(s.max_pc, pc.pcOffset);
        uint64_t n = 0;
        for (size_t r = 0; r < pc.stallReasonCount; r++) {
            n += pc.stallReason[r].samples;
            for (size_t k = 0; k < g_nstall; k++)
                if (g_stall_index[k] == pc.stallReason[r].pcSamplingStallReasonIndex) {
                    s.per_reason[k] += pc.stallReason[r].samples;
                    break;
                }
        }
        s.per_function[pc.functionName ? pc.functionName : "?"] += n;
    }
    d->totalNumPcs = d->remainingNumPcs = 0;
    d->totalSamples = d->droppedSamples = d->nonUsrKernelsTotalSamples = 0;
    d->hardwareBufferFull = 0;
}

// What the stop left in the configured buffer, then GetData until nothing remains.
static void pcs_drain(PcStats &s)
{
    step("pcs drain");
    account(&g_pc_buffer, s);
    for (int i = 0; i < 1000; i++) {
        CUpti_PCSamplingGetDataParams g = {};
        g.size = CUpti_PCSamplingGetDataParamsSize;
        g.ctx = g_ctx;
        g.pcSamplingData = &g_pc_get;
        const CUptiResult r = cuptiPCSamplingGetData(&g);
        if (r != CUPTI_SUCCESS) { // not fatal: the earlier probe saw it with samples in hand
            s.get_failures++;
            s.get_result = r;
            break;
        }
        const size_t remaining = g_pc_get.remainingNumPcs;
        account(&g_pc_get, s);
        if (remaining == 0)
            break;
    }
}

// One FINDING line for a window's samples and one for its stall mix; a window in which the
// copy ran and that has no samples fails the case's check.
static void pcs_report(const char *label, PcStats &s)
{
    const long execs = g_execs - g_pcs_execs0;
    const int w = ++g_windows;
    std::string funcs;
    for (auto &f : s.per_function)
        funcs += (funcs.empty() ? "" : ", ") + f.first + " " + std::to_string(f.second);
    finding("PC samples W%d (%s): %llu (%.0f per kernel execution, %ld executions), %llu "
            "dropped, %llu non-user, %zu PCs (largest offset %llu), hwBufferFull %d, GetData %s; "
            "by function: %s",
            w, label, (unsigned long long)s.total, execs ? (double)s.total / execs : 0.0, execs,
            (unsigned long long)s.dropped, (unsigned long long)s.non_user, s.pcs,
            (unsigned long long)s.max_pc, s.hw_full,
            s.get_failures ? result_string(s.get_result) : "ok", funcs.empty() ? "-" : funcs.c_str());
    uint64_t sum = 0;
    std::vector<std::pair<uint64_t, size_t>> top;
    for (size_t k = 0; k < s.per_reason.size(); k++) {
        sum += s.per_reason[k];
        if (s.per_reason[k])
            top.push_back({s.per_reason[k], k});
    }
    std::sort(top.rbegin(), top.rend());
    std::string mix;
    for (size_t k = 0; k < top.size() && k < 5; k++) {
        char b[128];
        snprintf(b, sizeof b, "%s%s %.1f%%", k ? ", " : "", g_stall_name[top[k].second].c_str(),
                 100.0 * top[k].first / (double)sum);
        mix += b;
    }
    finding("stall mix W%d (top 5 of %llu samples with a reason): %s", w,
            (unsigned long long)sum, mix.empty() ? "none" : mix.c_str());
    if (execs > 0 && s.total == 0) {
        g_bad = true;
        finding("PC sampling W%d yielded NO samples for %ld kernel executions", w, execs);
    }
    tell("samples", "W%d:%.0f%s", w, execs ? (double)s.total / execs : 0.0,
         s.dropped ? "(dropped)" : "");
}

// A window: start, the copies, stop, drain, report.
static void pcs_window(const char *label, int n)
{
    pcs_start();
    launches(n);
    CK(cudaDeviceSynchronize());
    pcs_stop();
    PcStats s;
    pcs_drain(s);
    pcs_report(label, s);
}

// ---- the profiler API's common part ---------------------------------------------------------

static bool g_profiler_initialized;
static const char *g_chip;

static void profiler_init(void)
{
    if (g_profiler_initialized)
        return;
    step("profiler initialize");
    CUpti_Profiler_Initialize_Params i = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    V(cuptiProfilerInitialize(&i));
    CUpti_Device_GetChipName_Params c = {CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    c.deviceIndex = 0;
    Q(cuptiDeviceGetChipName(&c));
    g_chip = c.pChipName;
    g_profiler_initialized = true;
}

static void device_supported(CUpti_Profiler_API api, const char *what)
{
    CUpti_Profiler_DeviceSupported_Params p = {CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
    p.cuDevice = 0;
    p.api = api;
    Q(cuptiProfilerDeviceSupported(&p));
    if (p.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        call_failed("cuptiProfilerDeviceSupported", what);
}

static CUpti_Profiler_Host_Object *host_open(CUpti_ProfilerType type, const uint8_t *availability)
{
    CUpti_Profiler_Host_Initialize_Params p = {CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    p.profilerType = type;
    p.pChipName = g_chip;
    p.pCounterAvailabilityImage = availability;
    Q(cuptiProfilerHostInitialize(&p));
    return p.pHostObject;
}

static size_t configure(CUpti_Profiler_Host_Object *host, const char **names, size_t n,
                        std::vector<uint8_t> &image)
{
    CUpti_Profiler_Host_ConfigAddMetrics_Params a = {
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    a.pHostObject = host;
    a.ppMetricNames = names;
    a.numMetrics = n;
    Q(cuptiProfilerHostConfigAddMetrics(&a));
    CUpti_Profiler_Host_GetConfigImageSize_Params s = {
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    s.pHostObject = host;
    Q(cuptiProfilerHostGetConfigImageSize(&s));
    image.assign(s.configImageSize, 0);
    CUpti_Profiler_Host_GetConfigImage_Params g = {
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    g.pHostObject = host;
    g.configImageSize = image.size();
    g.pConfigImage = image.data();
    Q(cuptiProfilerHostGetConfigImage(&g));
    CUpti_Profiler_Host_GetNumOfPasses_Params p = {
        CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    p.pConfigImage = image.data();
    p.configImageSize = image.size();
    Q(cuptiProfilerHostGetNumOfPasses(&p));
    return p.numOfPasses;
}

static void evaluate(CUpti_Profiler_Host_Object *host, std::vector<uint8_t> &data, size_t range,
                     const char **names, size_t n, double *values)
{
    CUpti_Profiler_Host_EvaluateToGpuValues_Params e = {
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
    e.pHostObject = host;
    e.pCounterDataImage = data.data();
    e.counterDataImageSize = data.size();
    e.rangeIndex = range;
    e.ppMetricNames = names;
    e.numMetrics = n;
    e.pMetricValues = values;
    Q(cuptiProfilerHostEvaluateToGpuValues(&e));
}

// ---- the range profiler (cupti_range_profiler.h), as src/counters/profiler.c drives it ----------

enum Mode { M_USER, M_KERNEL, M_URANGE };
static const char *const mode_names[] = {"auto range + user replay", "auto range + kernel replay",
                                         "user range + user replay"};
// One SASS-patched counter and one hardware counter: two passes (they cannot share one).
static const char *rp_metrics[] = {"smsp__sass_inst_executed_op_global_ld.sum",
                                   "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"};
static const size_t RP_N = 2;

static struct {
    Mode mode;
    CUpti_Profiler_Host_Object *host;
    std::vector<uint8_t> image, data;
    size_t passes;
    CUpti_RangeProfiler_Object *object;
} g_rp;

static size_t rp_capacity(void)
{
    return g_rp.mode == M_URANGE ? 1 : LAUNCHES;
}

static void rp_host(Mode mode)
{
    g_rp.mode = mode;
    profiler_init();
    step("range profiler host");
    device_supported(CUPTI_PROFILER_RANGE_PROFILING, "range profiling not supported");
    g_rp.host = host_open(CUPTI_PROFILER_TYPE_RANGE_PROFILER, NULL);
    g_rp.passes = configure(g_rp.host, rp_metrics, RP_N, g_rp.image);
    say("range profiler on %s: %s, %zu counters in %zu passes", g_chip, mode_names[mode], RP_N,
        g_rp.passes);
}

// Enabled on the context, its counter data sized (again after every enable: an image sized by
// another range profiler crashed CUPTI, bench/README.md "Rotation").
static void rp_enable(void)
{
    step("range profiler enable");
    CUpti_RangeProfiler_Enable_Params e = {CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    e.ctx = g_ctx;
    V(cuptiRangeProfilerEnable(&e));
    g_rp.object = e.pRangeProfilerObject;
    CUpti_RangeProfiler_GetCounterDataSize_Params s = {
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    s.pRangeProfilerObject = g_rp.object;
    s.pMetricNames = rp_metrics;
    s.numMetrics = RP_N;
    s.maxNumOfRanges = rp_capacity();
    s.maxNumRangeTreeNodes = (uint32_t)rp_capacity();
    Q(cuptiRangeProfilerGetCounterDataSize(&s));
    g_rp.data.assign(s.counterDataSize, 0);
}

static void rp_disable(void)
{
    step("range profiler disable");
    CUpti_RangeProfiler_Disable_Params d = {CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    d.pRangeProfilerObject = g_rp.object;
    V(cuptiRangeProfilerDisable(&d));
    g_rp.object = NULL;
}

// A session's beginning: the counter data initialised and the configuration set.
static void rp_begin(void)
{
    step("range profiler set config");
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params i = {
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    i.pRangeProfilerObject = g_rp.object;
    i.counterDataSize = g_rp.data.size();
    i.pCounterData = g_rp.data.data();
    Q(cuptiRangeProfilerCounterDataImageInitialize(&i));
    CUpti_RangeProfiler_SetConfig_Params c = {CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    c.pRangeProfilerObject = g_rp.object;
    c.configSize = g_rp.image.size();
    c.pConfig = g_rp.image.data();
    c.counterDataImageSize = g_rp.data.size();
    c.pCounterDataImage = g_rp.data.data();
    c.range = g_rp.mode == M_URANGE ? CUPTI_UserRange : CUPTI_AutoRange;
    c.replayMode = g_rp.mode == M_KERNEL ? CUPTI_KernelReplay : CUPTI_UserReplay;
    c.maxRangesPerPass = rp_capacity();
    c.numNestingLevels = 1;
    c.minNestingLevel = 1;
    c.passIndex = 0;
    c.targetNestingLevel = 1;
    V(cuptiRangeProfilerSetConfig(&c));
}

static void rp_start(void)
{
    step("range profiler start");
    CUpti_RangeProfiler_Start_Params s = {CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    s.pRangeProfilerObject = g_rp.object;
    V(cuptiRangeProfilerStart(&s));
    if (g_rp.mode == M_URANGE) {
        CUpti_RangeProfiler_PushRange_Params p = {CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
        p.pRangeProfilerObject = g_rp.object;
        p.pRangeName = "copy";
        Q(cuptiRangeProfilerPushRange(&p));
    }
    if (g_rp.mode == M_KERNEL)
        g_replay = (int)g_rp.passes; // CUPTI runs each launch once per pass
}

// Returns whether every pass has been submitted.
static bool rp_stop(void)
{
    step("range profiler stop");
    if (g_rp.mode == M_URANGE) {
        CUpti_RangeProfiler_PopRange_Params p = {CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
        p.pRangeProfilerObject = g_rp.object;
        Q(cuptiRangeProfilerPopRange(&p));
    }
    CUpti_RangeProfiler_Stop_Params s = {CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    s.pRangeProfilerObject = g_rp.object;
    V(cuptiRangeProfilerStop(&s));
    g_replay = 1;
    return s.isAllPassSubmitted != 0;
}

// Passes until all are submitted: one for kernel replay, one per pass for user replay (the
// copy is idempotent: nothing to restore between passes).
static void rp_session(void)
{
    for (int pass = 0; pass < 8; pass++) {
        rp_start();
        launches(LAUNCHES);
        if (rp_stop())
            return;
    }
    call_failed("cuptiRangeProfilerStop", "isAllPassSubmitted still 0 after 8 passes");
}

// Decodes the session and sets each range's counters against the copy's exact counts.
static void rp_decode_check(const char *label)
{
    step("range profiler decode");
    CUpti_RangeProfiler_DecodeData_Params d = {CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    d.pRangeProfilerObject = g_rp.object;
    V(cuptiRangeProfilerDecodeData(&d));
    CUpti_RangeProfiler_GetCounterDataInfo_Params i = {
        CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    i.pCounterDataImage = g_rp.data.data();
    i.counterDataImageSize = g_rp.data.size();
    Q(cuptiRangeProfilerGetCounterDataInfo(&i));
    const size_t want_ranges = rp_capacity();
    const double per_range = g_rp.mode == M_URANGE ? LAUNCHES : 1;
    const double expected[RP_N] = {per_range * (double)(g_n / 32), per_range * (double)(g_n / 8)};
    bool equal = i.numTotalRanges == want_ranges && d.numOfRangeDropped == 0;
    std::string values;
    for (size_t r = 0; r < i.numTotalRanges && r < want_ranges; r++) {
        double v[RP_N];
        evaluate(g_rp.host, g_rp.data, r, rp_metrics, RP_N, v);
        for (size_t m = 0; m < RP_N; m++) {
            equal &= v[m] == expected[m];
            char b[160];
            snprintf(b, sizeof b, "%srange %zu %s %.0f (expected %.0f)", values.empty() ? "" : "; ",
                     r, rp_metrics[m], v[m], expected[m]);
            values += b;
        }
    }
    const int tag = ++g_rp_checks;
    finding("range profiler counters RP%d (%s): %zu ranges (expected %zu), %zu dropped; %s -> %s",
            tag, label, i.numTotalRanges, want_ranges, d.numOfRangeDropped, values.c_str(),
            equal ? "EQUAL" : "DIFFERENT");
    g_bad |= !equal;
    tell("counters", "RP%d %s", tag, equal ? "equal" : "DIFFER");
}

// ---- PM sampling (cupti_pmsampling.h), as src/counters/pm_sampler.c drives it ------------------

static const char *pm_metrics[] = {"dram__bytes_read.sum", "dram__bytes_write.sum"};
// The window's sum is what is checked, so the interval only has to leave room: 20,000 samples
// of 100 us hold 2 s, more than a window with PC sampling's first start inside it (~0.4 s).
static const uint64_t PM_INTERVAL_NS = 100000;
static const uint32_t PM_MAX_SAMPLES = 20000;

static struct {
    std::vector<uint8_t> availability, image, data;
    CUpti_Profiler_Host_Object *host;
    CUpti_PmSampling_Object *object;
    long execs0;
} g_pm;

static void pm_enable(void)
{
    profiler_init();
    step("pm counter availability");
    device_supported(CUPTI_PROFILER_PM_SAMPLING, "PM sampling not supported");
    CUpti_PmSampling_GetCounterAvailability_Params a = {
        CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE};
    a.deviceIndex = 0;
    V(cuptiPmSamplingGetCounterAvailability(&a)); // HARDWARE_BUSY beside a range profiler
    g_pm.availability.assign(a.counterAvailabilityImageSize, 0);
    a.pCounterAvailabilityImage = g_pm.availability.data();
    Q(cuptiPmSamplingGetCounterAvailability(&a));
    step("pm host");
    if (!g_pm.host) {
        g_pm.host = host_open(CUPTI_PROFILER_TYPE_PM_SAMPLING, g_pm.availability.data());
        const size_t passes = configure(g_pm.host, pm_metrics, 2, g_pm.image);
        if (passes != 1)
            call_failed("cuptiProfilerHostGetNumOfPasses", "PM sampling needs one pass");
    }
    step("pm enable");
    CUpti_PmSampling_Enable_Params e = {CUpti_PmSampling_Enable_Params_STRUCT_SIZE};
    e.deviceIndex = 0;
    V(cuptiPmSamplingEnable(&e));
    g_pm.object = e.pPmSamplingObject;
    step("pm set config");
    CUpti_PmSampling_SetConfig_Params c = {CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE};
    c.pPmSamplingObject = g_pm.object;
    c.configSize = g_pm.image.size();
    c.pConfig = g_pm.image.data();
    c.hardwareBufferSize = (size_t)PM_MAX_SAMPLES * 2048; // pm_sampler.c's 2 KiB a sample
    c.hardwareBufferSize = (c.hardwareBufferSize + ((size_t)1 << 20) - 1) >> 20 << 20;
    c.samplingInterval = PM_INTERVAL_NS;
    c.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
    c.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
    V(cuptiPmSamplingSetConfig(&c));
    CUpti_PmSampling_GetCounterDataSize_Params s = {
        CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE};
    s.pPmSamplingObject = g_pm.object;
    s.pMetricNames = pm_metrics;
    s.numMetrics = 2;
    s.maxSamples = PM_MAX_SAMPLES;
    Q(cuptiPmSamplingGetCounterDataSize(&s));
    g_pm.data.assign(s.counterDataSize, 0);
}

static void pm_disable(void)
{
    step("pm disable");
    CUpti_PmSampling_Disable_Params d = {CUpti_PmSampling_Disable_Params_STRUCT_SIZE};
    d.pPmSamplingObject = g_pm.object;
    V(cuptiPmSamplingDisable(&d));
    g_pm.object = NULL;
}

static void pm_start(void)
{
    step("pm start");
    CK(cudaDeviceSynchronize()); // nothing earlier in the window
    CUpti_PmSampling_CounterDataImage_Initialize_Params i = {
        CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    i.pPmSamplingObject = g_pm.object;
    i.counterDataSize = g_pm.data.size();
    i.pCounterData = g_pm.data.data();
    Q(cuptiPmSamplingCounterDataImageInitialize(&i));
    CUpti_PmSampling_Start_Params s = {CUpti_PmSampling_Start_Params_STRUCT_SIZE};
    s.pPmSamplingObject = g_pm.object;
    V(cuptiPmSamplingStart(&s));
    g_pm.execs0 = g_execs;
}

// Stops, decodes everything and sets the window's DRAM reads against the copies' bytes (within
// 5 %: a cache-state count; writes are shown, L2 write-back moves them).
static void pm_stop_check(const char *label)
{
    CK(cudaDeviceSynchronize());
    step("pm stop");
    CUpti_PmSampling_Stop_Params s = {CUpti_PmSampling_Stop_Params_STRUCT_SIZE};
    s.pPmSamplingObject = g_pm.object;
    V(cuptiPmSamplingStop(&s));
    step("pm decode");
    size_t completed = 0;
    bool lost = false;
    for (int i = 0; i < 64; i++) {
        CUpti_PmSampling_DecodeData_Params d = {CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE};
        d.pPmSamplingObject = g_pm.object;
        d.pCounterDataImage = g_pm.data.data();
        d.counterDataImageSize = g_pm.data.size();
        const CUptiResult r = cuptiPmSamplingDecodeData(&d);
        if (r == CUPTI_ERROR_OUT_OF_MEMORY)
            lost = true; // the hardware buffer was full: it kept the window's start
        else if (r != CUPTI_SUCCESS) {
            say("  %-44s %s", "cuptiPmSamplingDecodeData", result_string(r));
            call_failed("cuptiPmSamplingDecodeData", result_string(r));
        }
        lost |= d.overflow != 0;
        CUpti_PmSampling_GetCounterDataInfo_Params n = {
            CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE};
        n.pCounterDataImage = g_pm.data.data();
        n.counterDataImageSize = g_pm.data.size();
        Q(cuptiPmSamplingGetCounterDataInfo(&n));
        const bool progressed = n.numCompletedSamples > completed;
        completed = n.numCompletedSamples;
        if (r != CUPTI_SUCCESS ||
            d.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_END_OF_RECORDS)
            break;
        if (d.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL) {
            lost = true;
            break;
        }
        if (!progressed)
            break;
    }
    double read = 0, write = 0;
    for (size_t i = 0; i < completed; i++) {
        double v[2];
        evaluate(g_pm.host, g_pm.data, i, pm_metrics, 2, v);
        read += v[0];
        write += v[1];
    }
    const long execs = g_execs - g_pm.execs0;
    const double expected = (double)execs * g_n * sizeof(float);
    const double off = expected > 0 ? 100.0 * (read - expected) / expected : 0;
    const bool equal = expected > 0 && fabs(off) <= 5.0 && !lost;
    const int tag = ++g_pm_checks;
    finding("PM sampling PM%d (%s): %zu samples of %.0f us, DRAM read %.1f MB (expected %.1f MB "
            "for %ld copies: %+.2f %%), written %.1f MB, samples lost %d -> %s",
            tag, label, completed, PM_INTERVAL_NS / 1e3, read / 1e6, expected / 1e6, execs, off,
            write / 1e6, (int)lost, equal ? "AGREES (5 %)" : "DIFFERENT");
    g_bad |= !equal;
    tell("counters", "PM%d %s", tag, equal ? "dram ok" : "DRAM DIFFER");
}

static void pm_window(const char *label, int n)
{
    pm_start();
    launches(n);
    pm_stop_check(label);
}

// ---- SASS patching (cupti_sass_metrics.h), as src/counters/sass_source.c drives it -------------

static const char *sass_metrics[] = {"smsp__sass_inst_executed_op_global_ld",
                                     "smsp__sass_inst_executed_op_global_st",
                                     "smsp__sass_sectors_mem_global"};
static const size_t SASS_N = 3;
static uint64_t g_sass_ids[SASS_N];
static long g_sass_execs0;

// Set once per device before the enable (unset and set again, the second range counted
// nothing: bench/README.md, "Per-line view").
static void sass_config(void)
{
    profiler_init();
    step("sass set config");
    CUpti_SassMetrics_Config config[SASS_N];
    for (size_t m = 0; m < SASS_N; m++) {
        CUpti_SassMetrics_GetProperties_Params p = {
            CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
        p.pChipName = g_chip;
        p.pMetricName = sass_metrics[m];
        Q(cuptiSassMetricsGetProperties(&p));
        g_sass_ids[m] = p.metric.metricId;
        config[m].metricId = p.metric.metricId;
        config[m].outputGranularity = CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU;
    }
    CUpti_SassMetricsSetConfig_Params s = {CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
    s.deviceIndex = 0;
    s.numOfMetricConfig = SASS_N;
    s.pConfigs = config;
    V(cuptiSassMetricsSetConfig(&s));
}

static void sass_unset(void)
{
    step("sass unset config");
    CUpti_SassMetricsUnsetConfig_Params u = {CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE};
    u.deviceIndex = 0;
    V(cuptiSassMetricsUnsetConfig(&u));
}

static void sass_enable(void)
{
    step("sass enable");
    CUpti_SassMetricsEnable_Params e = {CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
    e.ctx = g_ctx;
    e.enableLazyPatching = 1;
    V(cuptiSassMetricsEnable(&e));
    g_sass_execs0 = g_execs;
}

static void sass_disable(void)
{
    step("sass disable");
    CUpti_SassMetricsDisable_Params d = {CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
    d.ctx = g_ctx;
    V(cuptiSassMetricsDisable(&d));
    if (d.numOfDroppedRecords)
        finding("SASS metrics: %zu dropped records at disable", d.numOfDroppedRecords);
}

// Flushes the patched instructions' counts and sets their sums against the copy's.
static void sass_flush_check(const char *label)
{
    CK(cudaDeviceSynchronize());
    step("sass flush");
    CUpti_SassMetricsGetDataProperties_Params p = {
        CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
    p.ctx = g_ctx;
    V(cuptiSassMetricsGetDataProperties(&p));
    const size_t records = p.numOfPatchedInstructionRecords, per = p.numOfInstances * SASS_N;
    double sums[SASS_N] = {0, 0, 0};
    if (records) {
        std::vector<CUpti_SassMetrics_Data> d(records);
        std::vector<CUpti_SassMetrics_InstanceValue> v(records * per);
        for (size_t r = 0; r < records; r++) {
            memset(&d[r], 0, sizeof d[r]);
            d[r].structSize = sizeof d[r];
            d[r].pInstanceValues = &v[r * per];
        }
        CUpti_SassMetricsFlushData_Params f = {CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
        f.ctx = g_ctx;
        f.numOfPatchedInstructionRecords = records;
        f.numOfInstances = p.numOfInstances;
        f.pMetricsData = d.data();
        V(cuptiSassMetricsFlushData(&f));
        for (size_t r = 0; r < records; r++)
            for (size_t k = 0; k < per; k++)
                for (size_t m = 0; m < SASS_N; m++)
                    if (d[r].pInstanceValues[k].metricId == g_sass_ids[m])
                        sums[m] += (double)d[r].pInstanceValues[k].value;
    }
    const long execs = g_execs - g_sass_execs0;
    const double expected[SASS_N] = {(double)execs * (g_n / 32), (double)execs * (g_n / 32),
                                     (double)execs * (g_n / 4)};
    bool equal = records > 0;
    std::string values;
    for (size_t m = 0; m < SASS_N; m++) {
        equal &= sums[m] == expected[m];
        char b[160];
        snprintf(b, sizeof b, "%s%s %.0f (expected %.0f)", m ? "; " : "", sass_metrics[m], sums[m],
                 expected[m]);
        values += b;
    }
    const int tag = ++g_sass_checks;
    finding("SASS metrics SASS%d (%s): %zu patched instruction records, %ld patched executions; "
            "%s -> %s",
            tag, label, records, execs, values.c_str(), equal ? "EQUAL" : "DIFFERENT");
    g_bad |= !equal;
    tell("counters", "SASS%d %s", tag, equal ? "equal" : records ? "DIFFER" : "NO RECORDS");
}

// ---- the cases -----------------------------------------------------------------------------------

// p0: PC sampling alone. Two windows on one enable, then disabled and enabled again on the same
// context (the pattern the "d" cases need): does sampling itself survive it, what does each
// step cost, and how many samples does a copy give (the reference for every other window)?
static void case_pcs_alone(int)
{
    pcs_enable();
    pcs_window("alone", LAUNCHES);
    pcs_window("alone, again", LAUNCHES);
    pcs_disable();
    pcs_enable();
    pcs_window("after disable and enable again", LAUNCHES);
    pcs_disable();
}

// 1<m>0: the range profiler alone, the counters' reference in this mode.
static void case_rp_alone(int mode)
{
    rp_host((Mode)mode);
    rp_enable();
    rp_begin();
    rp_session();
    rp_decode_check("alone");
    rp_disable();
}

// 1<m>a1: (a) both at once, PC sampling first: does the range profiler enable, start and count
// with PC sampling running, and does PC sampling sample the profiled (and replayed) launches?
static void case_rp_a1(int mode)
{
    pcs_enable();
    pcs_start();
    rp_host((Mode)mode);
    rp_enable();
    rp_begin();
    rp_session();
    rp_decode_check("with PC sampling running");
    CK(cudaDeviceSynchronize());
    pcs_stop();
    PcStats s;
    pcs_drain(s);
    pcs_report("during the RP session", s);
    rp_disable();
    pcs_disable();
}

// 1<m>a2: (a) both at once, the range profiler first: PC sampling enabled and started while a
// range-profiler pass is running; sampling stays on through the remaining passes.
static void case_rp_a2(int mode)
{
    rp_host((Mode)mode);
    rp_enable();
    rp_begin();
    rp_start();
    pcs_enable();
    pcs_start();
    launches(LAUNCHES);
    bool all = rp_stop();
    for (int pass = 1; !all && pass < 8; pass++) {
        rp_start();
        launches(LAUNCHES);
        all = rp_stop();
    }
    if (!all)
        call_failed("cuptiRangeProfilerStop", "isAllPassSubmitted still 0 after 8 passes");
    CK(cudaDeviceSynchronize());
    pcs_stop();
    PcStats s;
    pcs_drain(s);
    pcs_report("enabled inside an RP pass", s);
    rp_decode_check("with PC sampling enabled inside its pass");
    pcs_disable();
    rp_disable();
}

// 1<m>b: (b) the range profiler enabled and configured (SetConfig done), no pass running: does
// PC sampling enable beside it and sample? Then the profiler's session runs with PC sampling
// enabled but stopped: does it count right, and does sampling work again after it?
static void case_rp_b(int mode)
{
    rp_host((Mode)mode);
    rp_enable();
    rp_begin();
    pcs_enable();
    pcs_window("RP configured, idle", LAUNCHES);
    rp_session();
    rp_decode_check("with PC sampling enabled, stopped");
    pcs_window("after the RP session", LAUNCHES);
    pcs_disable();
    rp_disable();
}

// 1<m>c: (c) windows of PC sampling between the profiler's passes (user replay: the passes of
// one session; kernel replay: CUPTI's passes are inside a launch, so between two sessions).
static void case_rp_c(int mode)
{
    pcs_enable();
    rp_host((Mode)mode);
    rp_enable();
    rp_begin();
    pcs_window("before", LAUNCHES);
    if (mode == M_KERNEL) {
        rp_session();
        rp_decode_check("session 1");
        pcs_window("between sessions", LAUNCHES);
        rp_begin();
        rp_session();
        rp_decode_check("session 2");
        pcs_window("after", LAUNCHES);
    } else {
        bool all = false;
        for (int pass = 0; !all && pass < 8; pass++) {
            rp_start();
            launches(LAUNCHES);
            all = rp_stop();
            char label[48];
            snprintf(label, sizeof label, "after pass %d", pass + 1);
            pcs_window(label, LAUNCHES);
        }
        if (!all)
            call_failed("cuptiRangeProfilerStop", "isAllPassSubmitted still 0 after 8 passes");
        rp_decode_check("PC windows between passes");
    }
    pcs_disable();
    rp_disable();
}

// 1<m>d: PC sampling disabled before the profiler's session and enabled again after it (the
// range profiler stays enabled): does the re-enable work beside an enabled range profiler,
// and what does it cost?
static void case_rp_d(int mode)
{
    pcs_enable();
    pcs_window("alone", LAUNCHES);
    pcs_disable();
    rp_host((Mode)mode);
    rp_enable();
    rp_begin();
    rp_session();
    rp_decode_check("session 1, PC sampling disabled");
    pcs_enable();
    pcs_window("re-enabled beside the RP", LAUNCHES);
    pcs_disable();
    rp_begin();
    rp_session();
    rp_decode_check("session 2, after PC sampling's second enable");
    rp_disable();
}

// 1<m>e: the range profiler disabled around PC sampling (gpuprof_profiler_suspend, as --source
// does for SASS patching) and enabled anew: the fully time-sliced fallback.
static void case_rp_e(int mode)
{
    rp_host((Mode)mode);
    rp_enable();
    rp_begin();
    rp_session();
    rp_decode_check("session 1");
    rp_disable();
    pcs_enable();
    pcs_window("RP disabled", LAUNCHES);
    pcs_disable();
    rp_enable();
    rp_begin();
    rp_session();
    rp_decode_check("session 2, RP enabled anew");
    rp_disable();
}

// 2p0: PM sampling alone, the DRAM bytes' reference.
static void case_pm_alone(int)
{
    pm_enable();
    pm_window("alone", LAUNCHES);
    pm_disable();
}

// 2a1: PC sampling enabled and started, then PM sampling enabled (counter availability,
// enable, configuration) and a PM window, inside the PC window.
static void case_pm_a1(int)
{
    pcs_enable();
    pcs_start();
    pm_enable();
    pm_window("inside a PC window", LAUNCHES);
    pcs_stop();
    PcStats s;
    pcs_drain(s);
    pcs_report("around the PM window", s);
    pm_disable();
    pcs_disable();
}

// 2a2: PM sampling enabled and started, then PC sampling enabled and started inside the PM
// window (PC sampling's first start, ~0.4 s, falls inside it).
static void case_pm_a2(int)
{
    pm_enable();
    pm_start();
    pcs_enable();
    pcs_start();
    launches(LAUNCHES);
    CK(cudaDeviceSynchronize());
    pcs_stop();
    pm_stop_check("around a PC window");
    PcStats s;
    pcs_drain(s);
    pcs_report("enabled inside the PM window", s);
    pcs_disable();
    pm_disable();
}

// 2c: both enabled, their windows taking turns.
static void case_pm_c(int)
{
    pcs_enable();
    pm_enable();
    pcs_window("PM enabled, idle", LAUNCHES);
    pm_window("between PC windows", LAUNCHES);
    pcs_window("after the PM window", LAUNCHES);
    pm_disable();
    pcs_disable();
}

// 2d: PC sampling disabled around PM sampling's whole life, enabled again after.
static void case_pm_d(int)
{
    pcs_enable();
    pcs_window("alone", LAUNCHES);
    pcs_disable();
    pm_enable();
    pm_window("PC sampling disabled", LAUNCHES);
    pm_disable();
    pcs_enable();
    pcs_window("re-enabled", LAUNCHES);
    pcs_disable();
}

// 3s0: the SASS Metrics API alone, one lazily patched launch.
static void case_sass_alone(int)
{
    sass_config();
    sass_enable();
    launches(1);
    sass_flush_check("alone");
    sass_disable();
    sass_unset();
}

// 3a1: PC sampling running, then SASS patching enabled and one patched launch inside the PC
// window: do the SASS counts stay right, and where do the samples of patched code land (their
// PCs against the unpatched kernel's)?
static void case_sass_a1(int)
{
    pcs_enable();
    pcs_start();
    sass_config();
    sass_enable();
    launches(1);
    CK(cudaDeviceSynchronize());
    pcs_stop();
    PcStats s;
    pcs_drain(s);
    pcs_report("over the patched launch", s);
    sass_flush_check("with PC sampling running");
    sass_disable();
    sass_unset();
    pcs_disable();
}

// 3a2: SASS patching enabled first, then PC sampling enabled and started around the patched
// launch.
static void case_sass_a2(int)
{
    sass_config();
    sass_enable();
    pcs_enable();
    pcs_start();
    launches(1);
    CK(cudaDeviceSynchronize());
    pcs_stop();
    PcStats s;
    pcs_drain(s);
    pcs_report("enabled after SASS patching", s);
    sass_flush_check("with PC sampling enabled after it");
    sass_disable();
    sass_unset();
    pcs_disable();
}

// 3c: PC sampling enabled but stopped during the patched launch; windows before and after.
static void case_sass_c(int)
{
    pcs_enable();
    pcs_window("before", LAUNCHES);
    sass_config();
    sass_enable();
    launches(1);
    sass_flush_check("with PC sampling enabled, stopped");
    sass_disable();
    pcs_window("after the SASS disable", LAUNCHES);
    sass_unset();
    pcs_disable();
}

// 3d: PC sampling disabled around the patched launch, enabled again after.
static void case_sass_d(int)
{
    pcs_enable();
    pcs_window("alone", LAUNCHES);
    pcs_disable();
    sass_config();
    sass_enable();
    launches(1);
    sass_flush_check("with PC sampling disabled");
    sass_disable();
    pcs_enable();
    pcs_window("re-enabled", LAUNCHES);
    pcs_disable();
    sass_unset();
}

struct Case {
    std::string id, question;
    void (*run)(int);
    int mode;
    bool subscribe;
};

static std::vector<Case> all_cases(void)
{
    std::vector<Case> v;
    v.push_back({"p0", "PC sampling alone: 2 windows, disable, enable again (reference)",
                 case_pcs_alone, 0, false});
    const struct { Mode mode; const char *letter; } modes[] = {
        {M_USER, "u"}, {M_KERNEL, "k"}, {M_URANGE, "r"}};
    for (auto &m : modes) {
        const std::string p = std::string("1") + m.letter, name = mode_names[m.mode];
        v.push_back({p + "0", "range profiler alone, " + name, case_rp_alone, m.mode, false});
        v.push_back({p + "a1", "(a) PCS started, then RP session, " + name, case_rp_a1, m.mode, false});
        v.push_back({p + "a2", "(a) RP pass started, then PCS enabled+started, " + name, case_rp_a2,
                     m.mode, false});
        v.push_back({p + "b", "(b) PCS window with RP configured, no pass; RP session with PCS stopped, " +
                     name, case_rp_b, m.mode, false});
        v.push_back({p + "c", "(c) PCS windows between RP passes/sessions, " + name, case_rp_c,
                     m.mode, false});
        v.push_back({p + "d", "PCS disabled around the RP session, enabled again, " + name,
                     case_rp_d, m.mode, false});
        v.push_back({p + "e", "RP disabled around a PCS window, enabled anew, " + name, case_rp_e,
                     m.mode, false});
    }
    v.push_back({"2p0", "PM sampling alone", case_pm_alone, 0, false});
    v.push_back({"2a1", "(a) PCS started, then PM enabled + window", case_pm_a1, 0, false});
    v.push_back({"2a2", "(a) PM started, then PCS enabled+started inside", case_pm_a2, 0, false});
    v.push_back({"2c", "both enabled, PCS and PM windows alternating", case_pm_c, 0, false});
    v.push_back({"2d", "PCS disabled around PM sampling, enabled again", case_pm_d, 0, false});
    v.push_back({"3s0", "SASS metrics alone (subscriber on)", case_sass_alone, 0, true});
    v.push_back({"3a1", "(a) PCS started, then SASS enable + patched launch", case_sass_a1, 0, true});
    v.push_back({"3a2", "(a) SASS enabled, then PCS enabled+started around the patched launch",
                 case_sass_a2, 0, true});
    v.push_back({"3c", "PCS enabled but stopped during the patched launch", case_sass_c, 0, true});
    v.push_back({"3d", "PCS disabled around the patched launch, enabled again", case_sass_d, 0,
                 true});
    v.push_back({"p1", "PC sampling alone with a CUPTI subscriber (resource domain)",
                 case_pcs_alone, 0, true});
    return v;
}

// ---- the parent: one child per case, the table at the end -------------------------------------

struct Row {
    std::string verdict, fail, step, counters, samples, note;
    double seconds = 0;
};

static void parse_fields(const std::string &text, Row &row)
{
    size_t at = 0;
    while (at < text.size()) {
        size_t end = text.find('\n', at);
        if (end == std::string::npos)
            break; // an unfinished line: the child died writing it
        const std::string line = text.substr(at, end - at);
        at = end + 1;
        const size_t sp = line.find(' ');
        const std::string key = line.substr(0, sp), value = sp == std::string::npos ? "" : line.substr(sp + 1);
        if (key == "step")
            row.step = value;
        else if (key == "fail" && row.fail.empty())
            row.fail = value;
        else if (key == "verdict")
            row.verdict = value;
        else if (key == "counters")
            row.counters += (row.counters.empty() ? "" : " | ") + value;
        else if (key == "samples")
            row.samples += (row.samples.empty() ? "" : " | ") + value;
        else if (key == "note")
            row.note += (row.note.empty() ? "" : "; ") + value;
    }
}

static std::string signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    default: return "signal " + std::to_string(sig);
    }
}

// "W1:12503 | W2:0" -> "W1 12503 x1.00, W2 0 x0.00": samples per execution, and their ratio
// to the reference (p0's first window) where there is one.
static std::string samples_column(const std::string &samples, double reference)
{
    std::string out;
    size_t at = 0;
    while (at < samples.size()) {
        size_t end = samples.find(" | ", at);
        if (end == std::string::npos)
            end = samples.size();
        std::string seg = samples.substr(at, end - at);
        const size_t colon = seg.find(':');
        if (colon != std::string::npos) {
            char *rest = NULL;
            const double v = strtod(seg.c_str() + colon + 1, &rest);
            char b[64];
            snprintf(b, sizeof b, " %.0f", v);
            std::string tail = rest ? rest : "";
            if (reference > 0)
                snprintf(b + strlen(b), sizeof b - strlen(b), " x%.2f", v / reference);
            seg = seg.substr(0, colon) + b + tail;
        }
        out += (out.empty() ? "" : ", ") + seg;
        at = end + 3;
    }
    return out.empty() ? "-" : out;
}

static Row run_case(const Case &c, double limit_s)
{
    Row row;
    int fds[2];
    if (pipe(fds) != 0) {
        row.verdict = "NOT RUN (pipe)";
        return row;
    }
    printf("\n== %s: %s%s\n", c.id.c_str(), c.question.c_str(),
           c.subscribe ? " [CUPTI subscriber on]" : "");
    fflush(stdout);
    fflush(stderr);
    const double t0 = now_ms();
    const pid_t pid = fork();
    if (pid < 0) {
        row.verdict = "NOT RUN (fork)";
        close(fds[0]);
        close(fds[1]);
        return row;
    }
    if (pid == 0) { // the child: CUDA is first touched here
        close(fds[0]);
        g_pipe = fds[1];
        g_id = c.id.c_str();
        setvbuf(stdout, NULL, _IOLBF, 0);
        child_setup(c.subscribe || env_int("PROBE_SUBSCRIBE", 0));
        c.run(c.mode);
        verify_output();
        tell("verdict", "%s", g_bad ? "MISMATCH" : "OK");
        say("case done: %s", g_bad ? "a check failed (see FINDING lines)" : "every check passed");
        leave(0);
    }
    close(fds[1]);
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    std::string text;
    int status = 0;
    bool timed_out = false, done = false;
    while (!done) {
        char buf[4096];
        ssize_t k;
        while ((k = read(fds[0], buf, sizeof buf)) > 0)
            text.append(buf, (size_t)k);
        const pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) {
            done = true;
        } else if ((now_ms() - t0) / 1e3 > limit_s) {
            timed_out = true;
            kill(pid, SIGKILL); // this case's own child, by its id
            // A process stuck inside the driver may take a while to die: wait 5 s at most,
            // then go on without it (the next cases may find the GPU busy; the table says so).
            for (int i = 0; i < 250 && waitpid(pid, &status, WNOHANG) != pid; i++)
                usleep(20000);
            done = true;
        } else {
            usleep(20000);
        }
    }
    char buf[4096];
    ssize_t k;
    while ((k = read(fds[0], buf, sizeof buf)) > 0)
        text.append(buf, (size_t)k);
    close(fds[0]);
    row.seconds = (now_ms() - t0) / 1e3;
    parse_fields(text, row);
    char v[96];
    if (timed_out) {
        snprintf(v, sizeof v, "TIMEOUT(%.0fs)", limit_s);
        row.verdict = v;
    } else if (WIFSIGNALED(status)) {
        snprintf(v, sizeof v, "CRASH(%s)", signal_name(WTERMSIG(status)).c_str());
        row.verdict = v;
    } else if (row.verdict.empty()) {
        snprintf(v, sizeof v, "EXIT(%d)", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        row.verdict = v;
    }
    printf("== %s: %s in %.1f s\n", c.id.c_str(), row.verdict.c_str(), row.seconds);
    fflush(stdout);
    return row;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    g_log2n = env_int("PROBE_LOG2N", 26);
    g_period = (unsigned)env_int("PCS_PERIOD", 12);
    if (g_log2n < 13 || g_log2n > 30 || g_period < 5 || g_period > 31) {
        fprintf(stderr, "PROBE_LOG2N must be 13..30 and PCS_PERIOD 5..31\n");
        return 2;
    }
    g_n = (size_t)1 << g_log2n;
    const double budget = env_int("PROBE_BUDGET_S", 130), case_limit = env_int("PROBE_CASE_S", 15);
    std::vector<Case> cases = all_cases(), chosen;
    for (int a = 1; a < argc; a++)
        if (!strcmp(argv[a], "--list")) {
            for (auto &c : cases)
                printf("%-5s %s%s\n", c.id.c_str(), c.question.c_str(),
                       c.subscribe ? " [subscriber]" : "");
            return 0;
        }
    for (auto &c : cases) {
        bool take = argc < 2;
        for (int a = 1; a < argc; a++)
            take |= c.id.compare(0, strlen(argv[a]), argv[a]) == 0;
        if (take)
            chosen.push_back(c);
    }
    if (chosen.empty()) {
        fprintf(stderr, "no case matches; --list shows them\n");
        return 2;
    }
    printf("pcsamp_together_probe: %zu cases, copy of 2^%d floats (%zu MiB a buffer), %d launches "
           "a window/pass, PC sampling period 2^%u cycles, budget %.0f s (%.0f s a case)\n",
           chosen.size(), g_log2n, g_n * sizeof(float) >> 20, LAUNCHES, g_period, budget,
           case_limit);
    const double start = now_ms();
    std::vector<Row> rows;
    g_describe_device = true; // the first case's child says what it runs on
    for (auto &c : chosen) {
        const double left = budget - (now_ms() - start) / 1e3;
        if (left < 3) {
            Row r;
            r.verdict = "SKIPPED(budget)";
            rows.push_back(r);
            continue;
        }
        rows.push_back(run_case(c, std::min(case_limit, left)));
        g_describe_device = false;
    }

    // Samples per execution of each window, against p0's first window where it ran.
    double reference = 0;
    for (size_t i = 0; i < chosen.size(); i++)
        if (chosen[i].id == "p0" && !rows[i].samples.empty()) {
            const size_t colon = rows[i].samples.find(':');
            reference = atof(rows[i].samples.c_str() + colon + 1);
        }
    printf("\n== summary: %zu cases in %.1f s. PC samples per kernel execution in each window W<k>%s; "
           "counters RP<k>/PM<k>/SASS<k> against the copy's exact counts (the FINDING lines with "
           "the same tags hold the values)\n",
           chosen.size(), (now_ms() - start) / 1e3,
           reference > 0 ? " and their ratio to p0's W1" : "");
    printf("%-5s %-15s %5s  %-36s %-28s %s\n", "case", "result", "s",
           "PC samples/execution by window", "counters", "first failed call or last step / question");
    for (size_t i = 0; i < chosen.size(); i++) {
        const Row &r = rows[i];
        std::string where;
        if (!r.fail.empty())
            where = r.fail;
        else if (r.verdict.rfind("CRASH", 0) == 0 || r.verdict.rfind("TIMEOUT", 0) == 0 ||
                 r.verdict.rfind("EXIT", 0) == 0)
            where = "last step: " + r.step;
        if (!r.note.empty())
            where += (where.empty() ? "" : "; ") + r.note;
        std::string counters = r.counters.empty() ? "-" : r.counters;
        for (size_t bar; (bar = counters.find(" | ")) != std::string::npos;)
            counters.replace(bar, 3, ", ");
        printf("%-5s %-15s %5.1f  %-36s %-28s %s%s%s\n", chosen[i].id.c_str(), r.verdict.c_str(),
               r.seconds, samples_column(r.samples, reference).c_str(), counters.c_str(), where.c_str(),
               where.empty() ? "" : " / ", chosen[i].question.c_str());
    }
    printf("results: OK = every call succeeded, every counter equal to the copy's (PM: DRAM "
           "reads within 5 %%), every window sampled, output correct; MISMATCH = calls "
           "succeeded but a check failed; CALL-FAILED = the named call failed (the case ended "
           "there); CRASH/TIMEOUT = the child died or hung (last step shown)\n");
    return 0;
}
