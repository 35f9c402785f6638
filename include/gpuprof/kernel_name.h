/* Kernel names for people: a demangled name in one of ncu's styles (--kernel-name), and a
 * long name cut to a width at a readable boundary. Shared by the text, CSV and HTML
 * renderers; plain string work, no allocation. */
#ifndef GPUPROF_KERNEL_NAME_H
#define GPUPROF_KERNEL_NAME_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    GP_KERNEL_NAME_FULL = 0,   /* as demangled: return type, namespaces, templates,
                                  parameters */
    GP_KERNEL_NAME_FUNCTION,   /* without the parameter list */
    GP_KERNEL_NAME_BASE,       /* the function's own name: no return type, namespace,
                                  template arguments or parameters */
    GP_KERNEL_NAME_STYLES
} gp_kernel_name_style;

/* "full", "function", "base", indexed by style. */
extern const char *const gp_kernel_name_styles[GP_KERNEL_NAME_STYLES];
/* false for another name. */
bool gp_kernel_name_style_from_name(const char *name, gp_kernel_name_style *style);

/* The demangled name in a style, into buf (always terminated; cut at len - 1 bytes).
 * "void ns::k<int, 4>(float *, int)": full as is, function "void ns::k<int, 4>", base "k".
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

#endif
