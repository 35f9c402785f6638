/* Collective kernels told by name (gpuprof/collectives.h): NCCL's and NVSHMEM's, mangled or
 * not, and names that only look alike. */
#include "tap.h"

#include "gpuprof/collectives.h"

void test_collectives(void)
{
    static const char *const collectives[] = {
        "_Z29ncclDevKernel_AllReduce_Sum_f32_RING_LL24ncclDevKernelArgsStorageILm4096EE",
        "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
        "_Z26ncclKernel_AllGather_RING_LLP11ncclDevComm",
        "ncclKernel_Broadcast_RING_LL(ncclDevComm*, unsigned long)",
        "nvshmemi_transfer_rma_kernel",
        "_Z27nvshmemi_barrier_all_kernelv",
    };
    static const char *const others[] = {
        "_Z6reducePfS_i", "ampere_sgemm_128x64_nn", "my_ncclDevKernel_copy",
        "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEEEEviT0_",
        "", "_Z", "_ZN",
    };
    for (size_t i = 0; i < sizeof collectives / sizeof *collectives; i++)
        tap_ok(gp_kernel_is_collective(collectives[i]), "collective: %s", collectives[i]);
    for (size_t i = 0; i < sizeof others / sizeof *others; i++)
        tap_ok(!gp_kernel_is_collective(others[i]), "not a collective: '%s'", others[i]);
    tap_ok(!gp_kernel_is_collective(NULL), "no name: not a collective");
}
