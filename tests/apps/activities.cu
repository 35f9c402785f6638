// activities: many small GPU activities, a copy and a launch in turn, for the benchmark of
// what exec's activity records cost a program (bench/bench_activities.py).
//
//   activities [COUNT]     (default 10000; even, 2 to 10^7)
//
// COUNT / 2 times, in the default stream: cudaMemcpyAsync of 256 bytes from pinned host
// memory to the device (HtoD), then activitiesAdd<<<1, 32>>>, which adds one of the copied
// values to a device total; one synchronisation at the end, then the total is checked:
// COUNT activities in all (COUNT / 2 copies, COUNT / 2 launches). Prints nothing on success;
// exit 0 (1 on a wrong total, 2 on a CUDA or usage error).
#include "check.h"

#define VALUES 64   // 256 bytes of unsigned

__global__ void activitiesAdd(const unsigned *values, unsigned long long *total, unsigned i)
{
    if (threadIdx.x == 0)
        *total += values[i % VALUES];
}

int main(int argc, char **argv)
{
    char *end = NULL;
    const unsigned long count = argc > 1 ? strtoul(argv[1], &end, 10) : 10000;
    if (argc > 2 || (end && *end) || count < 2 || count > 10000000 || count % 2)
        usage_error("activities [COUNT]");
    unsigned *host, *values;
    unsigned long long *total;
    CHECK(cudaMallocHost(&host, VALUES * sizeof *host));
    for (unsigned k = 0; k < VALUES; k++)
        host[k] = k + 1;
    CHECK(cudaMalloc(&values, VALUES * sizeof *values));
    CHECK(cudaMalloc(&total, sizeof *total));
    CHECK(cudaMemset(total, 0, sizeof *total));
    unsigned long long want = 0;
    for (unsigned i = 0; i < count / 2; i++) {
        CHECK(cudaMemcpyAsync(values, host, VALUES * sizeof *host, cudaMemcpyHostToDevice, 0));
        LAUNCH(activitiesAdd<<<1, 32>>>(values, total, i));
        want += i % VALUES + 1;
    }
    unsigned long long got = 0;
    CHECK(cudaMemcpy(&got, total, sizeof got, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(values));
    CHECK(cudaFree(total));
    CHECK(cudaFreeHost(host));
    if (got != want) {
        fprintf(stderr, "activities: wrong total %llu, expected %llu\n", got, want);
        return 1;
    }
    return 0;
}
