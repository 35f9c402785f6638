/* Kernel labels in the short style (report/short_names.c, and through gpuprof/kernel_name.h's
 * gp_kernel_names_format): realistic demangled names of cuBLAS, PyTorch, CUTLASS, NCCL, cub,
 * thrust, Triton and plain C kernels, as c++filt and CUPTI write them, each alone and among the
 * kernels of one report that share its name. */
#include "tap.h"

#include "gpuprof/kernel_name.h"
#include "gpuprof/short_names.h"

#include <stdio.h>
#include <string.h>

#define GEMVX(n)                                                                                  \
    "std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, double, double, "   \
    "double, double, false, true, true, false, " #n ", false, cublasGemvParamsEx<int, "         \
    "cublasGemvTensorStridedBatched<double const>, cublasGemvTensorStridedBatched<double "      \
    "const>, cublasGemvTensorStridedBatched<double>, double> >(cublasGemvParamsEx<int, "        \
    "cublasGemvTensorStridedBatched<double const>, cublasGemvTensorStridedBatched<double "      \
    "const>, cublasGemvTensorStridedBatched<double>, double>)"
#define VECTORIZED(functor, n)                                                                    \
    "void at::native::vectorized_elementwise_kernel<4, at::native::" functor ", std::array<char " \
    "*, " #n "ul> >(int, at::native::" functor ", std::array<char *, " #n "ul>)"
#define GELU                                                                                      \
    "GeluCUDAKernelImpl(at::TensorIteratorBase &, at::native::GeluType)::{lambda()#2}::"         \
    "operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}"
#define MTA(list, functor, op)                                                                    \
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous " \
    "namespace)::" list ", at::native::(anonymous namespace)::" functor ", " op ">(at::native::" \
    "(anonymous namespace)::" list ", at::native::(anonymous namespace)::" functor ", " op ")"
#define KERNEL2(tile)                                                                             \
    "void cutlass::Kernel2<cutlass_80_simt_sgemm_" tile "_align1>(cutlass_80_simt_sgemm_" tile \
    "_align1::Params)"
#define REDUCE                                                                                    \
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "                        \
    "at::native::func_wrapper_t<float, at::native::sum_functor<float, float, "                    \
    "float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, "  \
    "4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, "                         \
    "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda("    \
    "float, float)#1}>, unsigned int, float, 4>)"
#define COPY_LAMBDA                                                                               \
    "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<"            \
    "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() "  \
    "const::{lambda()#7}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, "     \
    "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() "  \
    "const::{lambda()#7}::operator()() const::{lambda(float)#1} const&)::{lambda(int)#1}>(int, " \
    "at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::"                 \
    "TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() "        \
    "const::{lambda(float)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda("   \
    "at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() "    \
    "const::{lambda(float)#1} const&)::{lambda(int)#1})"
#define APPLY(t)                                                                                  \
    "void apply<" t ", void (*)(" t " *, int)>(" t " *, int, void (*)(" t " *, int))"
#define CUB(n)                                                                                    \
    "void cub::DeviceReduceKernel<cub::DeviceReducePolicy<float, float, int>::Policy600, float " \
    "*, float *, int, cub::Sum>(float *, float *, int, cub::GridEvenShare<int>, cub::Sum) #" #n

/* One name alone: its short name. */
static void alone(const char *full, const char *want)
{
    char got[512];
    gp_kernel_short_name(full, got, sizeof got);
    tap_str_eq(got, want, full);
}

/* Names of one report: their labels in the short style, told apart where they share a name. */
static void together(const char *what, const char *const *names, const char *const *want,
                     size_t n)
{
    char got[8][512];
    bool same = gp_kernel_names_format(names, n, GP_KERNEL_NAME_SHORT, got[0],
                                       sizeof got[0]) == 0;
    for (size_t i = 0; same && i < n; i++)
        same = strcmp(got[i], want[i]) == 0;
    if (!tap_ok(same, "%s", what))
        for (size_t i = 0; i < n; i++)
            tap_diag("got  %s\n#   want %s", got[i], want[i]);
}

#define TOGETHER(what, names, want)                                                              \
    together(what, names, want, sizeof(names) / sizeof(names)[0])

static void test_alone(void)
{
    alone(GEMVX(8), "internal::gemvx::kernel");
    alone(VECTORIZED("FillFunctor<float>", 1), "at::native::vectorized_elementwise_kernel");
    alone(MTA("TensorListMetadata<2>", "BinaryOpScalarFunctor<float, 2, 1, 1>", "std::plus<float>"),
          "at::native::multi_tensor_apply_kernel");
    alone("void at::native::<unnamed>::layer_norm_grad_input_kernel_vectorized<float, float, "
          "false>(const float *, const float *, const float *, const float *, const float *, "
          "float *, int)",
          "at::native::layer_norm_grad_input_kernel_vectorized");
    alone(KERNEL2("256x128_8x4_nt"), "cutlass::Kernel2");
    alone("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
          "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
    alone("triton_poi_fused_add_0", "triton_poi_fused_add_0");
    alone("copy_kernel", "copy_kernel");
    alone("copy_kernel(float*, float const*, int)", "copy_kernel");
    alone(REDUCE, "at::native::reduce_kernel");
    alone(COPY_LAMBDA, "at::native::elementwise_kernel");
    alone(APPLY("float"), "apply");
    alone("std::enable_if<((8)>(0)), void>::type foo::bar<8>(int)", "foo::bar");
    alone("void ns::Outer<int>::inner<(int)3>(int) const", "ns::Outer<int>::inner");
    alone("(anonymous namespace)::scale_kernel(float *, int)", "scale_kernel");
    alone(CUB(6), "cub::DeviceReduceKernel #6");
    alone("cub::DeviceReduce::Reduce [kernel 1 of 2]", "cub::DeviceReduce::Reduce [kernel 1 of 2]");
    alone("sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x64x8_stage3_warpsize1x4x1_ffma_"
          "aligna4_alignc4_execute_kernel__5x_cublas",
          "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x64x8_stage3_warpsize1x4x1_ffma_"
          "aligna4_alignc4_execute_kernel__5x_cublas");
    alone("", "");
    alone(">>>)(", ">>>)(");
    char small[8];
    gp_kernel_short_name("void averyveryverylongname(int)", small, sizeof small);
    tap_ok(strcmp(small, "averyve") == 0, "a short name is cut to the buffer, terminated");
}

static void test_together(void)
{
    const char *gemv[] = {GEMVX(8), GEMVX(9), "copy_kernel"};
    const char *gemv_want[] = {"internal::gemvx::kernel<…8…>", "internal::gemvx::kernel<…9…>",
                               "copy_kernel"};
    TOGETHER("cuBLAS GEMV: the one argument that differs, the others elided", gemv, gemv_want);
    const char *vec[] = {VECTORIZED("FillFunctor<float>", 1), VECTORIZED(GELU, 2),
                         VECTORIZED("FillFunctor<float>", 2)};
    const char *vec_want[] = {
        "at::native::vectorized_elementwise_kernel<…array<char *, 1ul>>",
        "at::native::vectorized_elementwise_kernel<…GeluCUDAKernelImpl(…)::{lambda(float)#1}…>",
        "at::native::vectorized_elementwise_kernel<…FillFunctor<float>, array<char *, 2ul>>"};
    TOGETHER("PyTorch elementwise: as few arguments as tell each apart, the shortest, "
             "namespaces dropped",
             vec, vec_want);
    const char *mta[] = {
        MTA("TensorListMetadata<1>", "BinaryOpScalarFunctor<float, 1, 1, 0>", "std::plus<float>"),
        MTA("TensorListMetadata<1>", "BinaryOpScalarFunctor<float, 1, 1, 0>",
            "std::multiplies<float>"),
        MTA("TensorListMetadata<2>", "BinaryOpScalarFunctor<float, 2, 1, 1>", "std::plus<float>")};
    const char *mta_want[] = {
        "at::native::multi_tensor_apply_kernel<TensorListMetadata<1>…plus<float>>",
        "at::native::multi_tensor_apply_kernel<…multiplies<float>>",
        "at::native::multi_tensor_apply_kernel<TensorListMetadata<2>…>"};
    TOGETHER("anonymous namespaces left out, two arguments where one does not tell apart", mta,
             mta_want);
    const char *cutlass[] = {KERNEL2("256x128_8x4_nt"), KERNEL2("128x64_8x5_tn")};
    const char *cutlass_want[] = {"cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nt_align1>",
                                  "cutlass::Kernel2<cutlass_80_simt_sgemm_128x64_8x5_tn_align1>"};
    TOGETHER("CUTLASS: its one argument", cutlass, cutlass_want);
    const char *nested[] = {"void ns::k<Outer<Inner<int, 4>, 2>, 8>(int)",
                            "void ns::k<Outer<Inner<int, 8>, 2>, 8>(int)", APPLY("float"),
                            APPLY("double")};
    const char *nested_want[] = {"ns::k<Outer<Inner<int, 4>, 2>…>",
                                 "ns::k<Outer<Inner<int, 8>, 2>…>", "apply<float…>",
                                 "apply<double…>"};
    TOGETHER("nested templates and function pointers: a whole argument", nested, nested_want);
    const char *overloads[] = {"scale(float *, int)", "scale(double *, int)", "scale(int)"};
    const char *overloads_want[] = {"scale(float *…)", "scale(double *…)", "scale(int)"};
    TOGETHER("overloads without templates: the parameters that differ", overloads,
             overloads_want);
    const char *same[] = {"triton_poi_fused_add_0", "triton_poi_fused_add_0", CUB(1), CUB(6),
                          "(anonymous namespace)::k(int)", "k(int)"};
    const char *same_want[] = {"triton_poi_fused_add_0", "triton_poi_fused_add_0",
                               "cub::DeviceReduceKernel #1", "cub::DeviceReduceKernel #6",
                               "(anonymous namespace)::k(int)", "k(int)"};
    TOGETHER("one name keeps one label; names a short name cannot tell apart are shown in full",
             same, same_want);
}

void test_short_names(void)
{
    test_alone();
    test_together();
}
