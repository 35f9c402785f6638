/* Kernel names in ncu's styles and cut at readable boundaries (src/report/kernel_name.c). */
#include "tap.h"

#include "gpuprof/kernel_name.h"
#include "gpuprof/status.h"

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

/* Cut in the middle: the start and the end kept, at least GP_KERNEL_NAME_LEAST columns, two
 * names never alike (issue 37). */
static void test_shorten(void)
{
    static const char *const gemm =
        "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_"
        "aligna4_alignc4_execute_kernel__5x_cublas";
    char buf[512];
    gp_kernel_name_shorten("kernel_05(float *, int)", 40, buf, sizeof buf);
    tap_str_eq(buf, "kernel_05(float *, int)", "a name that fits is whole");
    gp_kernel_name_shorten("kernel_05(float *, int, unsigned long)", 30, buf, sizeof buf);
    tap_str_eq(buf, "kernel_05(float *, int,…)", "a parameter list cut at its end");
    gp_kernel_name_shorten(gemm, 50, buf, sizeof buf);
    tap_ok(gp_text_columns(buf) <= 50 && strncmp(buf, "sm80_xmma_", 10) == 0 &&
           strstr(buf, "tilesize128x128x8_stage3") && strstr(buf, "5x_cublas"),
           "cuBLAS: the start, the tile shape and the end (%s)", buf);
    gp_kernel_name_shorten(CUB, 60, buf, sizeof buf);
    tap_ok(gp_text_columns(buf) <= 60 && strncmp(buf, "void cub::DeviceReduceKernel<", 29) == 0 &&
           strstr(buf, "(…)"), "C++: the own name kept, the parameters as (…) (%s)", buf);
    char k[200];
    memset(k, 'k', sizeof k - 1);
    k[sizeof k - 1] = '\0';
    gp_kernel_name_shorten(k, 4, buf, sizeof buf);
    tap_ok(gp_text_columns(buf) == GP_KERNEL_NAME_LEAST && buf[0] == 'k' &&
           buf[strlen(buf) - 1] == 'k', "no break point: cut in the middle, never to nothing");
    const char *names[] = {"void f<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, 1>(int)",
                           "void f<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, 2>(int)",
                           "void f<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, 1>(int)"};
    char labels[3][128];
    tap_ok(gp_kernel_names_shorten(names, 3, 24, labels[0], sizeof labels[0]) == GP_OK &&
           strcmp(labels[0], labels[1]) != 0 && strcmp(labels[0], labels[2]) == 0,
           "two names cut alike are told apart (%s, %s); equal names stay equal", labels[0],
           labels[1]);
    const char *bases[] = {"void a::k<1>(int)", "void b::k<2>(int)", "other(int)"};
    tap_ok(gp_kernel_names_format(bases, 3, GP_KERNEL_NAME_BASE, labels[0],
                                  sizeof labels[0]) == GP_OK &&
           strcmp(labels[0], "void a::k<1>") == 0 && strcmp(labels[2], "other") == 0,
           "base: kernels of one base name go one style fuller (%s)", labels[0]);
}

void test_kernel_name(void)
{
    test_styles();
    test_cut();
    test_shorten();
}
