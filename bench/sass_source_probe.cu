// sass_source_probe: what CUPTI's SASS Metrics API and SASS-to-source correlation give on this
// GPU (issue 36), for the per-line view. Prints the chip's SASS metrics, then, for a naive and a
// shared-memory transpose launched once each with the metrics enabled (and once more inside a
// CUDA graph instantiated after enabling, with lazy patching), each patched instruction's
// values with its file:line. Built with -lineinfo; run it, then run ncu's source page on it to
// compare:  ncu --section SourceCounters --page source --print-source cuda,sass --csv ./probe
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#include <cupti_pcsampling.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>
#include <cupti_profiler_target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#define CK(x) do { CUptiResult r_ = (x); if (r_) { const char *s_; cuptiGetResultString(r_, &s_); \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, s_); } } while (0)
#define CC(x) do { cudaError_t e_ = (x); if (e_) { printf("%s -> %s\n", #x, cudaGetErrorString(e_)); exit(2); } } while (0)

#define TILE 32
__global__ void probeNaive(float *out, const float *in, int width, int height)
{
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8)
        out[x * height + (y + j)] = in[(y + j) * width + x];
}

__global__ void probeSmem(float *out, const float *in, int width, int height)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8)
        out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

struct cubin { std::vector<char> bytes; uint64_t crc; };
static std::vector<cubin> cubins;

static void CUPTIAPI on_resource(void *, CUpti_CallbackDomain d, CUpti_CallbackId id, const void *p)
{
    if (d != CUPTI_CB_DOMAIN_RESOURCE || id != CUPTI_CBID_RESOURCE_MODULE_LOADED) return;
    const CUpti_ResourceData *r = (const CUpti_ResourceData *)p;
    const CUpti_ModuleResourceData *m = (const CUpti_ModuleResourceData *)r->resourceDescriptor;
    cubin c; c.bytes.assign(m->pCubin, m->pCubin + m->cubinSize);
    CUpti_GetCubinCrcParams cp = {CUpti_GetCubinCrcParamsSize}; cp.cubin = c.bytes.data(); cp.cubinSize = c.bytes.size();
    CK(cuptiGetCubinCrc(&cp)); c.crc = cp.cubinCrc;
    printf("module loaded: %zu bytes, crc %llu\n", c.bytes.size(), (unsigned long long)c.crc);
    cubins.push_back(c);
}

static const char *want[] = {
    "smsp__sass_inst_executed", "smsp__sass_thread_inst_executed",
    "smsp__sass_inst_executed_op_global_ld", "smsp__sass_inst_executed_op_global_st",
    "smsp__sass_sectors_mem_global", "smsp__sass_sectors_mem_global_ideal",
    "smsp__sass_inst_executed_op_shared_ld", "smsp__sass_inst_executed_op_shared_st",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_ideal",
    "smsp__sass_sectors_mem_local", "smsp__sass_sectors_mem_local_ideal",
    "smsp__sass_inst_executed_op_local_ld", "smsp__sass_inst_executed_op_local_st",
};
#define NW (sizeof want / sizeof want[0])

static uint64_t ids[32];

static void flush(CUcontext ctx, const char *what, int nc, const char **names)
{
    CUpti_SassMetricsGetDataProperties_Params dp = {CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
    dp.ctx = ctx; CK(cuptiSassMetricsGetDataProperties(&dp));
    size_t R = dp.numOfPatchedInstructionRecords, I = dp.numOfInstances;
    printf("== %s: %zu patched instruction records, %zu instances\n", what, R, I);
    if (!R) return;
    std::vector<CUpti_SassMetrics_Data> d(R);
    std::vector<CUpti_SassMetrics_InstanceValue> v(R * I * nc);
    for (size_t r = 0; r < R; r++) { memset(&d[r], 0, sizeof d[r]); d[r].structSize = sizeof d[r]; d[r].pInstanceValues = &v[r * I * nc]; }
    CUpti_SassMetricsFlushData_Params fd = {CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
    fd.ctx = ctx; fd.numOfPatchedInstructionRecords = R; fd.numOfInstances = I; fd.pMetricsData = d.data();
    CK(cuptiSassMetricsFlushData(&fd));
    for (size_t r = 0; r < R; r++) {
        const cubin *c = NULL;
        for (auto &k : cubins) if ((uint32_t)k.crc == d[r].cubinCrc || k.crc == d[r].cubinCrc) c = &k;
        char where[256] = "?";
        if (c) {
            CUpti_GetSassToSourceCorrelationParams sp = {CUpti_GetSassToSourceCorrelationParamsSize};
            sp.cubin = c->bytes.data(); sp.cubinSize = c->bytes.size(); sp.functionName = d[r].functionName; sp.pcOffset = d[r].pcOffset;
            if (cuptiGetSassToSourceCorrelation(&sp) == CUPTI_SUCCESS) {
                snprintf(where, sizeof where, "%s:%u", sp.fileName ? sp.fileName : "-", sp.lineNumber);
                free(sp.fileName); free(sp.dirName);
            } else snprintf(where, sizeof where, "nocorr");
        }
        printf("%-12s pc %5u crc %u %s", d[r].functionName, d[r].pcOffset, d[r].cubinCrc, where);
        for (size_t i = 0; i < I * nc; i++) {
            const CUpti_SassMetrics_InstanceValue *iv = &d[r].pInstanceValues[i];
            const char *name = "?";
            for (int w = 0; w < nc; w++) if (ids[w] == iv->metricId) name = names[w];
            if (iv->value) printf(" [%s]=%llu", name, (unsigned long long)iv->value);
        }
        printf("\n");
    }
}

static void plain(void)
{
    const int W = 2048, H = 2048; size_t bytes = (size_t)W * H * sizeof(float);
    float *in, *out; CC(cudaMalloc(&in, bytes)); CC(cudaMalloc(&out, bytes)); CC(cudaMemset(in, 0, bytes));
    dim3 grid(W / TILE, H / TILE), block(TILE, 8);
    probeNaive<<<grid, block>>>(out, in, W, H); CC(cudaGetLastError());
    probeSmem<<<grid, block>>>(out, in, W, H); CC(cudaGetLastError());
    CC(cudaDeviceSynchronize());
    printf("probe: plain done\n");
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "plain")) { plain(); return 0; }
    bool late_init = false;
    for (int a = 1; a < argc; a++) late_init |= !strcmp(argv[a], "init");
    if (!late_init) {
        CUpti_Profiler_Initialize_Params pi = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
        CK(cuptiProfilerInitialize(&pi));
    }
    CUpti_SubscriberHandle sub;
    CK(cuptiSubscribe(&sub, (CUpti_CallbackFunc)on_resource, NULL));
    CK(cuptiEnableDomain(1, sub, CUPTI_CB_DOMAIN_RESOURCE));
    const int W = 2048, H = 2048; size_t bytes = (size_t)W * H * sizeof(float);
    float *in, *out; CC(cudaMalloc(&in, bytes)); CC(cudaMalloc(&out, bytes)); CC(cudaMemset(in, 0, bytes));
    CUcontext ctx; cuCtxGetCurrent(&ctx);
    if (late_init) {
        CUpti_Profiler_Initialize_Params pi = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
        CK(cuptiProfilerInitialize(&pi));
        printf("init: cuptiProfilerInitialize after the context\n");
    }
    CUdevice dev; cuCtxGetDevice(&dev);
    CUpti_Device_GetChipName_Params cn = {CUpti_Device_GetChipName_Params_STRUCT_SIZE}; cn.deviceIndex = 0;
    CK(cuptiDeviceGetChipName(&cn));
    const char *chip = cn.pChipName;
    if (argc > 1 && !strcmp(argv[1], "list")) {
        CUpti_SassMetrics_GetNumOfMetrics_Params gn = {CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE}; gn.pChipName = chip;
        CK(cuptiSassMetricsGetNumOfMetrics(&gn));
        std::vector<CUpti_SassMetrics_MetricDetails> md(gn.numOfMetrics);
        CUpti_SassMetrics_GetMetrics_Params gm = {CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE}; gm.pChipName = chip; gm.numOfMetrics = gn.numOfMetrics; gm.pMetricsList = md.data();
        CK(cuptiSassMetricsGetMetrics(&gm));
        printf("%zu SASS metrics on %s\n", gn.numOfMetrics, chip);
        for (auto &m : md) printf("  %s: %s\n", m.pMetricName, m.pMetricDescription ? m.pMetricDescription : "");
    }
    dim3 grid0(2048 / TILE, 2048 / TILE), block0(TILE, 8);
    for (int a = 1; a < argc; a++) if (!strcmp(argv[a], "pre")) {
        probeNaive<<<grid0, block0>>>(out, in, W, H); probeSmem<<<grid0, block0>>>(out, in, W, H);
        CC(cudaDeviceSynchronize()); printf("pre: kernels ran before the configuration\n"); }
    CUpti_SassMetrics_Config cfg[NW]; const char *names[NW]; int nc = 0;
    for (size_t w = 0; w < NW; w++) {
        CUpti_SassMetrics_GetProperties_Params gp = {CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE}; gp.pChipName = chip; gp.pMetricName = want[w];
        if (cuptiSassMetricsGetProperties(&gp) == CUPTI_SUCCESS) { ids[nc] = gp.metric.metricId; cfg[nc].metricId = gp.metric.metricId; cfg[nc].outputGranularity = CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU; names[nc++] = want[w]; }
        else printf("no SASS metric %s\n", want[w]);
    }
    CUpti_SassMetricsSetConfig_Params sc = {CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE}; sc.deviceIndex = 0; sc.numOfMetricConfig = nc; sc.pConfigs = cfg;
    CK(cuptiSassMetricsSetConfig(&sc));
    dim3 grid(W / TILE, H / TILE), block(TILE, 8);
    /* probe [list] [pre] [LAZY...]: each LAZY (0 or 1) an enable-launch-flush round; pre:
     * the kernels run once before the metrics are configured. Default: 0 1. */
    int rounds[8] = {0, 1}, n_rounds = 0;
    for (int a = 1; a < argc; a++) {
        if ((argv[a][0] == '0' || argv[a][0] == '1') && n_rounds < 8) rounds[n_rounds++] = argv[a][0] - '0';
    }
    if (!n_rounds) n_rounds = 2;
    for (int round = 0; round < n_rounds; round++) {
        const int lazy = rounds[round];
        CUpti_SassMetricsEnable_Params se = {CUpti_SassMetricsEnable_Params_STRUCT_SIZE}; se.ctx = ctx; se.enableLazyPatching = lazy;
        CK(cuptiSassMetricsEnable(&se));
        cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
        cudaEventRecord(a); probeNaive<<<grid, block>>>(out, in, W, H); cudaEventRecord(b); CC(cudaDeviceSynchronize());
        float ms; cudaEventElapsedTime(&ms, a, b); printf("lazy=%d naive patched launch %.3f ms\n", lazy, ms);
        probeSmem<<<grid, block>>>(out, in, W, H); CC(cudaGetLastError()); CC(cudaDeviceSynchronize());
        flush(ctx, lazy ? "direct, lazy" : "direct", nc, names);
        cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        cudaGraph_t g; cudaGraphExec_t e;
        CC(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal)); probeNaive<<<grid, block, 0, s>>>(out, in, W, H); CC(cudaStreamEndCapture(s, &g));
        CC(cudaGraphInstantiate(&e, g, 0)); CC(cudaGraphLaunch(e, s)); CC(cudaStreamSynchronize(s));
        flush(ctx, lazy ? "graph instantiated after enable, lazy" : "graph instantiated after enable", nc, names);
        CUpti_SassMetricsDisable_Params sd = {CUpti_SassMetricsDisable_Params_STRUCT_SIZE}; sd.ctx = ctx; CK(cuptiSassMetricsDisable(&sd));
        cudaEventRecord(a); probeNaive<<<grid, block>>>(out, in, W, H); cudaEventRecord(b); CC(cudaDeviceSynchronize());
        cudaEventElapsedTime(&ms, a, b); printf("unpatched launch %.3f ms\n", ms);
    }
    CUpti_SassMetricsUnsetConfig_Params su = {CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE}; su.deviceIndex = 0; CK(cuptiSassMetricsUnsetConfig(&su));
    printf("probe: done\n");
    return 0;
}
