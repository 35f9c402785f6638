/* Distributed jobs: collective kernels told by name (src/base/collectives.c). */
#include "tap.h"

#include "gpuprof/collectives.h"

static void test_collectives(void)
{
    static const char *const yes[] = {
        "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
        "_Z29ncclDevKernel_AllGather_RING_LL24ncclDevKernelArgsStorageILm4096EE",
        "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)",
        "nvshmemi_transfer_rma_kernel", "nvshmem_barrier_all_kernel",
    };
    static const char *const no[] = {
        "void at::native::vectorized_elementwise_kernel<4>(int)", "my_nccl_helper",
        "void foo::nvshmem_like()", "", NULL,
    };
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        tap_ok(gp_kernel_is_collective(yes[i]), "collective: %s", yes[i]);
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        tap_ok(!gp_kernel_is_collective(no[i]), "not collective: %s", no[i] ? no[i] : "NULL");
}

void test_ranks(void)
{
    test_collectives();
}
