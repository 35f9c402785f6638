/* C++ kernel names as people read them, through the C++ runtime's demangler (found at run
 * time: a C program need not link libstdc++). */
#ifndef GPUPROF_DEMANGLE_H
#define GPUPROF_DEMANGLE_H

/* The demangled name (the caller frees it), or NULL when `mangled` is not a C++ name or no
 * demangler is there. */
char *gp_demangle(const char *mangled);

#endif
