/* NVTX range labels folded: PyTorch's emit_nvtx names each op call "NAME, seq = N, op_id = N"
 * (and with record_shapes ", sizes = [[...]], input_op_ids = [(N,0), ...]"), numbers that differ at every call, so that a
 * raw path names one call, not one place in the program (a 200-step loop on an H200: 5,013
 * distinct paths for 5,214 launches, bench/README.md "exec --nvtx"). Removing those parts
 * makes the calls of one op in one place one range. The injected library folds each label
 * when a range is pushed (src/inject/nvtx_ranges.c); the range view folds the paths of
 * reports recorded before it did (src/report/exec_ranges.c). Base layer: pure. */
#ifndef GPUPROF_RANGE_FOLD_H
#define GPUPROF_RANGE_FOLD_H

#include <stdbool.h>
#include <stddef.h>

/* One label of n bytes with emit_nvtx's per-call parts removed: ", seq = N", ", op_id = N",
 * ", sizes = [...]" and ", input_op_ids = [...]" (emit_nvtx(record_shapes=True)), each where it ends at the label's end
 * or before the next ", "; nothing else changes. `out` holds n + 1 bytes (a folded label is
 * never longer); its length. */
size_t gp_range_fold_label(const char *label, size_t n, char *out);
/* A whole path folded label by label ('/' between them), into out (strlen(path) + 1 bytes). */
void gp_range_fold(const char *path, char *out);

/* emit_nvtx's forward-backward correlation: a forward op's range says "seq = N" for the
 * autograd node it would create, and that node's range in the backward pass ("AddmmBackward0,
 * seq = N", on autograd's own thread) says the same N. The sequence number of a label of n
 * bytes into *seq: false when it has none. */
bool gp_range_label_seq(const char *label, size_t n, unsigned long long *seq);
/* Whether a (folded) label names an autograd node's backward: it ends in "Backward" and
 * optional digits ("AddmmBackward0", "autograd::engine::evaluate_function: AddmmBackward0"). */
bool gp_range_label_backward(const char *label);

#endif
