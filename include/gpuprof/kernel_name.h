/* Kernel names for people: a demangled name in one of the --kernel-name styles (short, the
 * labels of every view, and ncu's three), and a long name cut to a width at a readable
 * boundary. Shared by the text, CSV and HTML renderers; plain string work (the functions over
 * several names allocate a little). */
#ifndef GPUPROF_KERNEL_NAME_H
#define GPUPROF_KERNEL_NAME_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    GP_KERNEL_NAME_SHORT = 0,  /* the qualified name, and the template arguments that tell
                                  kernels of one name apart (gpuprof/short_names.h) */
    GP_KERNEL_NAME_FULL,       /* as demangled: return type, namespaces, templates,
                                  parameters */
    GP_KERNEL_NAME_FUNCTION,   /* without the parameter list */
    GP_KERNEL_NAME_BASE,       /* the function's own name: no return type, namespace,
                                  template arguments or parameters */
    GP_KERNEL_NAME_STYLES
} gp_kernel_name_style;

/* "short", "full", "function", "base", indexed by style. */
extern const char *const gp_kernel_name_styles[GP_KERNEL_NAME_STYLES];
/* false for another name. */
bool gp_kernel_name_style_from_name(const char *name, gp_kernel_name_style *style);

/* The demangled name in a style, into buf (always terminated; cut at len - 1 bytes).
 * "void ns::k<int, 4>(float *, int)": short "ns::k", full as is, function
 * "void ns::k<int, 4>", base "k".
 * A name it cannot parse (no parameter list, say) keeps what it has. */
void gp_kernel_name_format(const char *name, gp_kernel_name_style style, char *buf,
                           size_t len);

/* Columns a UTF-8 string takes (its code points; every one counted one column wide). */
size_t gp_text_columns(const char *s);

/* The name cut to at most `width` columns (width >= 2), ending in "…", at a readable
 * boundary: after a "::" or a ", ", or before a "(" or "<", never inside an identifier
 * unless the name's first identifier alone is wider than `width`. A name that fits is
 * copied whole. */
void gp_kernel_name_cut(const char *name, size_t width, char *buf, size_t len);

/* The fewest columns a shortened name keeps, whatever the room: a label is never cut to
 * nothing. */
#define GP_KERNEL_NAME_LEAST 16

/* The name cut in its middle to at most `width` columns (at least GP_KERNEL_NAME_LEAST),
 * keeping its distinctive parts: a parameter list that does not fit cut at its end
 * ("k(float *, int,…)"), or where the function's name and template arguments do not fit
 * either, the start (through the function's own name where that fits) and the end of the
 * template arguments, the parameters as "(…)": "void ns::k<…, Policy<4>, float>(…)"; a name
 * without parameters keeps its start and its last words ("sm80_xmma_gemm_…_tilesize128x128x8
 * _stage3"). Cuts fall at "::", ", ", "_", "<" or "(" where one is near. */
void gp_kernel_name_shorten(const char *name, size_t width, char *buf, size_t len);

/* Each of n names shortened to `width` into labels (n buffers of `stride` bytes), two
 * different names never to one label. A name without parameters that has namespaces or
 * template arguments (a short label) keeps its start through its own name and "<" whole where
 * that leaves 16 columns for the rest, else as many namespaces before its own name as fit
 * ("…" for the others), else its own name alone, the rest cut at its end where that keeps
 * the names apart, else in the middle. Any other name, or one whose rest would read as another's,
 * is cut as a whole (gp_kernel_name_shorten): where those cuts coincide, each also keeps the
 * part around where they first differ ("start…differing part…end"), or failing that where
 * they last differ. Equal names get equal labels. GP_OK, or out of host memory. */
int gp_kernel_names_shorten(const char *const *names, size_t n, size_t width, char *labels,
                            size_t stride);

/* Each of n names in a style into out (n buffers of `stride` bytes): short with what tells
 * names of one short name apart (gp_kernel_short_names); a name whose styled form another
 * name's also is goes to the next fuller style (base, function, full; short, full) until none
 * coincide, so that two kernels are never shown as one. GP_OK, or out of host memory. */
int gp_kernel_names_format(const char *const *names, size_t n, gp_kernel_name_style style,
                           char *out, size_t stride);

#endif
