/* Kernel names in ncu's styles and cut at readable boundaries (src/report/kernel_name.c). */
#include "tap.h"

#include "gpuprof/kernel_name.h"

#include <string.h>

#define CUB "void cub::DeviceReduceKernel<cub::DeviceReducePolicy<float, float, int>::Policy600, " \
            "float *, float *, int, cub::Sum>(float *, float *, int, cub::GridEvenShare<int>, "   \
            "cub::Sum)"
#define CSR "void cusparse::csrmv_v3_kernel<cusparse::CsrMVPolicy<128, 4, 2, 7>, int, int, " \
            "float, float, float, float, float>(cusparse::KernelCoeffs<float>, int const *, " \
            "int const *, int const *, float const *, float const *, int, int, float *)"

static void check_style(const char *name, gp_kernel_name_style style, const char *want)
{
    char buf[512];
    gp_kernel_name_format(name, style, buf, sizeof buf);
    tap_str_eq(buf, want, gp_kernel_name_styles[style]);
}

static void test_styles(void)
{
    gp_kernel_name_style s = GP_KERNEL_NAME_FULL;
    tap_ok(gp_kernel_name_style_from_name("base", &s) && s == GP_KERNEL_NAME_BASE,
           "'base' names the base style");
    tap_ok(!gp_kernel_name_style_from_name("Base", &s), "style names are exact");
    check_style("copyCoalesced(float *, const float *, unsigned long)", GP_KERNEL_NAME_FULL,
                "copyCoalesced(float *, const float *, unsigned long)");
    check_style("copyCoalesced(float *, const float *, unsigned long)",
                GP_KERNEL_NAME_FUNCTION, "copyCoalesced");
    check_style("copyCoalesced(float *, const float *, unsigned long)", GP_KERNEL_NAME_BASE,
                "copyCoalesced");
    check_style(CUB, GP_KERNEL_NAME_FUNCTION,
                "void cub::DeviceReduceKernel<cub::DeviceReducePolicy<float, float, "
                "int>::Policy600, float *, float *, int, cub::Sum>");
    check_style(CUB, GP_KERNEL_NAME_BASE, "DeviceReduceKernel");
    check_style(CSR, GP_KERNEL_NAME_BASE, "csrmv_v3_kernel");
    check_style("void (anonymous namespace)::scale<(int)3>(float *)", GP_KERNEL_NAME_FUNCTION,
                "void (anonymous namespace)::scale<(int)3>");
    check_style("void (anonymous namespace)::scale<(int)3>(float *)", GP_KERNEL_NAME_BASE,
                "scale");
    check_style("reductionInner", GP_KERNEL_NAME_BASE, "reductionInner");
    check_style("", GP_KERNEL_NAME_BASE, "");
    check_style("(((", GP_KERNEL_NAME_BASE, "(((");
    check_style(">>>)(", GP_KERNEL_NAME_FUNCTION, ">>>)(");
}

/* The cut: at most the width, ending in "…", at a boundary, and no identifier split. */
static void check_cut(const char *name, size_t width, const char *want)
{
    char buf[512];
    gp_kernel_name_cut(name, width, buf, sizeof buf);
    tap_str_eq(buf, want, "cut");
    tap_ok(gp_text_columns(buf) <= width || gp_text_columns(name) <= width,
           "%zu columns at most (got %zu)", width, gp_text_columns(buf));
}

static void test_cut(void)
{
    check_cut("kernel_05(float *, int)", 40, "kernel_05(float *, int)");
    check_cut("kernel_05(float *, int)", 12, "kernel_05…");
    check_cut("kernel_05(float *, int)", 20, "kernel_05(float *,…");
    check_cut(CSR, 40, "void cusparse::csrmv_v3_kernel…");
    check_cut(CSR, 60, "void cusparse::csrmv_v3_kernel<cusparse::CsrMVPolicy<128,…");
    check_cut(CUB, 30, "void cub::DeviceReduceKernel…");
    check_cut("averyveryverylongidentifier", 10, "averyvery…");
    check_cut("a b c d e f g h", 6, "a b c…");
    tap_ok(gp_text_columns("a…b") == 3, "'…' is one column");
    char buf[8];
    gp_kernel_name_cut(CUB, 200, buf, sizeof buf);
    tap_ok(strlen(buf) == 7, "the cut fits its buffer");
}

void test_kernel_name(void)
{
    test_styles();
    test_cut();
}
