/* Kernel names in the short style, the labels every view gives kernels by default
 * (report/short_names.c; the styles are gpuprof/kernel_name.h's): the function's qualified
 * name, and only where kernels share it, the template arguments that tell them apart. */
#ifndef GPUPROF_SHORT_NAMES_H
#define GPUPROF_SHORT_NAMES_H

#include <stddef.h>

/* The function's qualified name without its return type, anonymous namespaces, template
 * arguments and parameters, then what follows the parameters (" #6") that tells kernels of
 * one name apart: "void at::native::(anonymous namespace)::k<4>(float *) #6" →
 * "at::native::k #6". A name it cannot take apart is kept whole. */
void gp_kernel_short_name(const char *full, char *buf, size_t len);

/* Each of n names short into out (n buffers of `stride` bytes); names that share a short name
 * also get the template arguments that tell each from the others (failing those, its
 * parameters): as few as tell it apart, the shortest first, in their places, the others
 * elided as "…" and the namespaces inside them dropped: "internal::gemvx::kernel<…8…>"
 * against "internal::gemvx::kernel<…9…>". Names that differ only in what a short name leaves
 * out (a return type, an anonymous namespace) keep one label. GP_OK, or out of host memory. */
int gp_kernel_short_names(const char *const *names, size_t n, char *out, size_t stride);

#endif
