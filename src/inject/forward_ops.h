/* The forward ops of PyTorch's emit_nvtx ranges by their sequence numbers (issue 48): the
 * path of the innermost range that said "seq = N" when a kernel launched inside it, so that a
 * backward node's range ("AddmmBackward0, seq = N", run on autograd's own thread, outside
 * the main thread's ranges) can name the forward op it belongs to. Called by
 * nvtx_ranges.c with its model's lock held: no lock of its own. */
#ifndef GPUPROF_INJECT_FORWARD_OPS_H
#define GPUPROF_INJECT_FORWARD_OPS_H

#include "inject/inject.h"

#include <stdbool.h>

/* The most recent sequence numbers kept (older ones are overwritten, slot by slot): the
 * backward pass of a step follows its forward pass by a few hundred ops. */
#define GP_FORWARD_OPS_SLOTS 16384

/* Remember that op `seq`'s range is the last label of `path`; false when memory ran out
 * (that op stays unknown). */
bool gp_forward_ops_note(unsigned long long seq, const char *path);
/* The path noted for `seq`, or NULL. Valid until the next note. */
const char *gp_forward_ops_find(unsigned long long seq);

#endif
