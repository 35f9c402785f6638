/* The HTML pages' short kernel names (report/short_names.c): real demangled names of cuSPARSE,
 * cub and the test programs, and names it must keep whole. */
#include "tap.h"

#include "gpuprof/short_names.h"

#include <string.h>

static void short_is(const char *full, const char *want)
{
    char got[256];
    gp_kernel_short_name(full, got, sizeof got);
    tap_str_eq(got, want, full);
}

void test_html_names(void)
{
    short_is("copyCoalesced(float *, const float *, unsigned long)", "copyCoalesced");
    short_is("void cusparse::csrmv_v3_kernel<std::integral_constant<bool, false>, int, int, "
             "float, float, float, float, void>(cusparse::KernelCoeffs<float>, const int *, "
             "const int *, const int *, const float *, int, int, int, const float *, float *)",
             "csrmv_v3_kernel");
    short_is("void cub::DeviceReduceKernel<cub::DeviceReducePolicy<float, float, int>::"
             "Policy600, float *, float *, int, cub::Sum>(float *, float *, int, "
             "cub::GridEvenShare<int>, cub::Sum) #6", "DeviceReduceKernel #6");
    short_is("(anonymous namespace)::scale_kernel(float *, int)", "scale_kernel");
    short_is("void ns::Outer<int>::inner<(int)3>(int) const", "inner");
    short_is("cub::DeviceReduce::Reduce [kernel 1 of 2]", "Reduce [kernel 1 of 2]");
    short_is("reduceNeighbored", "reduceNeighbored");
    short_is("", "");
    short_is("<script>alert('x')</script> & \"q\"", "<script>alert('x')</script> & \"q\"");
    char small[8];
    gp_kernel_short_name("void averyveryverylongname(int)", small, sizeof small);
    tap_ok(strcmp(small, "averyve") == 0, "a short name is cut to the buffer, terminated");

    const char *fulls[] = {"f<int>(int)", "g(int)", "f<float>(float)", "f<int>(int)"};
    char labels[4][32] = {"f", "g", "f", "f"};
    gp_kernel_short_names_apart(labels[0], sizeof labels[0], sizeof labels[0], fulls, 4);
    tap_ok(strcmp(labels[0], "f (1)") == 0 && strcmp(labels[1], "g") == 0 &&
               strcmp(labels[2], "f (2)") == 0 && strcmp(labels[3], "f (1)") == 0,
           "labels alike for different names are numbered apart, in order; one name keeps its "
           "number");
}
