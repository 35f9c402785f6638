// varying: a program that launches one more kernel each time it runs, for the mismatch
// warning of `gpuprof exec --replay=application`.
//
//   varying STATEFILE
//
// Reads a count from STATEFILE (0 when it does not exist), launches `varyingStep` (grid 64,
// block 128) 3 + count times, and writes count + 1 back, so its first run launches 3
// kernels, its second 4, and so on. What the tests assert: `varying: ok` on stdout, exit 0
// (2 on a usage, file or CUDA error); under application replay, a warning that a later run
// launched what the first did not.
#include "check.h"

__global__ void varyingStep(unsigned *count)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *count += 1;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        usage_error("varying STATEFILE");
    long runs = 0;
    FILE *f = fopen(argv[1], "r");
    if (f) {
        if (fscanf(f, "%ld", &runs) != 1)
            runs = 0;
        fclose(f);
    }
    unsigned *d, h = 0;
    CHECK(cudaMalloc(&d, sizeof *d));
    CHECK(cudaMemset(d, 0, sizeof *d));
    for (long l = 0; l < 3 + runs; l++)
        LAUNCH(varyingStep<<<64, 128>>>(d));
    CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    if (h != (unsigned)(3 + runs)) {
        fprintf(stderr, "varying: counted %u, expected %ld\n", h, 3 + runs);
        return 1;
    }
    f = fopen(argv[1], "w");
    if (!f || fprintf(f, "%ld\n", runs + 1) < 0 || fclose(f) != 0) {
        fprintf(stderr, "app: cannot write %s\n", argv[1]);
        return 2;
    }
    printf("varying: ok\n");
    return 0;
}
