/* gpuprof exec's record reader (records/read.c) on the records of tests/fixtures/records/ (real
 * ones, written by the injected library on an H100; see the README there), and on texts that
 * no library writes: what the report holds afterwards, launch by launch. */
#include "tap.h"
#include "exec_records.h"
#include "gpuprof/collectives.h"

#include "records/records.h"
#include "gpuprof/exec_modes.h"
#include "gpuprof/exec_summary.h"
#include "gpuprof/report.h"
#include "gpuprof/status.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONTEXT_LOST "ended without exiting normally: the launch in flight and kernel times not " \
                     "yet written are missing"

/* The records of tests/fixtures/records/<name>/ read, then checked by check(). */
void check_case(const char *name, void (*check)(const gp_report *r))
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/records/%s", tap_fixtures, name);
    gp_report r;
    gp_report_init(&r);
    const int rc = gp_records_read_dir(dir, &r);
    if (rc != GP_OK)
        tap_diag("%s: %s", dir, gp_error());
    if (tap_ok(rc == GP_OK, "exec records %s: read", name))
        check(&r);
    gp_report_free(&r);
}

int exec_report_of(const char *name, char *const *command_line, int argc, int pid,
                   gp_report *r)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/records/%s", tap_fixtures, name);
    gp_report_init(r);
    r->is_exec = true;
    snprintf(r->command, sizeof r->command, "exec");
    snprintf(r->profiler.metric_set, sizeof r->profiler.metric_set, "default");
    r->exec.request = gp_exec_request_default();
    r->exec.request.source = true;
    GP_TRY(gp_report_set_command_line(r, argc, (char **)command_line));
    GP_TRY(gp_exec_set_program(&r->exec, 1, (char **)command_line + argc - 1));
    r->exec.pid = pid;
    GP_TRY(gp_records_read_dir(dir, r));
    for (size_t i = 0; i < r->exec.n_devices; i++)
        r->exec.devices[i].driver_version = r->exec.devices[i].runtime_version = 13000;
    r->has_device = r->exec.n_devices > 0;
    if (r->has_device)
        r->device = r->exec.devices[0];
    return GP_OK;
}

const gp_metric_value *metric(const gp_exec_launch *l, const char *key)
{
    for (size_t i = 0; i < l->metrics.n_metrics; i++)
        if (strcmp(l->metrics.metrics[i].key, key) == 0)
            return &l->metrics.metrics[i];
    return NULL;
}

double metric_value(const gp_exec_launch *l, const char *key)
{
    const gp_metric_value *m = metric(l, key);
    return m && m->valid ? m->value : NAN;
}

static bool has_warning(const gp_report *r, const char *text)
{
    for (size_t i = 0; i < r->n_warnings; i++)
        if (strcmp(r->warnings[i], text) == 0)
            return true;
    return false;
}

/* Does launch i have this pid, id, kernel and profiled state? */
bool launch_is(const gp_report *r, size_t i, int pid, uint64_t id, const char *kernel,
                      bool profiled)
{
    const gp_exec_launch *l = i < r->exec.n_launches ? &r->exec.launches[i] : NULL;
    bool ok = l && l->pid == pid && l->id == id && l->kernel && strcmp(l->kernel, kernel) == 0 &&
              l->profiled == profiled;
    if (!ok && l)
        tap_diag("launch %zu: pid %d id %llu kernel '%s' profiled %d", i, l->pid,
                 (unsigned long long)l->id, l->kernel ? l->kernel : "(null)", l->profiled);
    return ok;
}

/* Exactly n launches, those of process pid numbered from 1, named in turn by names[]. */
static bool numbered_launches(const gp_report *r, int pid, size_t n, const char *const *names,
                              size_t n_names, bool profiled)
{
    bool all = r->exec.n_launches == n;
    for (size_t i = 0; all && i < n; i++)
        all = launch_is(r, i, pid, i + 1, names[i % n_names], profiled);
    return all;
}

/* ---- the fixtures ------------------------------------------------------------------------- */

#define COALESCED "copyCoalesced(float *, const float *, unsigned long)"
#define STRIDED "copyStrided(float *, const float *, unsigned long)"

static void normal_run(const gp_report *r)
{
    const gp_exec_info *e = &r->exec;
    tap_ok(e->processes == 1 && e->n_launches == 4 && r->n_warnings == 0,
           "normal: one process, 4 launches, no warnings");
    const gp_device_info *d = e->n_devices == 1 ? &e->devices[0] : NULL;
    tap_ok(d && d->index == 0 && strcmp(d->name, "NVIDIA H100 80GB HBM3") == 0 &&
               d->cc_major == 9 && d->cc_minor == 0 && d->multiprocessors == 132 &&
               d->memory_bytes == 85017493504ull && d->l2_bytes == 52428800 &&
               d->memory_bus_bits == 5120 && d->copy_gbps < 0,
           "normal: the device as its record gave it");
    tap_near(d ? d->sm_clock_mhz : 0, 1980, 1e-9, "normal: SM clock in MHz");
    tap_near(d ? d->peak_gbps : 0, 3352.32, 1e-9, "normal: peak bandwidth from the clock "
                                                   "and bus width");
    tap_ok(r->profiler.state == GP_PROF_OK && strcmp(r->profiler.chip, "GH100") == 0 &&
               r->profiler.passes == 2 && strcmp(r->profiler.metric_set, "default") == 0,
           "normal: the profiler as its set-up record gave it");
    tap_ok(launch_is(r, 0, 685, 1, COALESCED, true) &&
               launch_is(r, 1, 685, 2, COALESCED, true) &&
               launch_is(r, 2, 685, 3, STRIDED, false) &&
               launch_is(r, 3, 685, 4, STRIDED, false),
           "normal: launches in order, names demangled, the profiled ones first");
    const gp_exec_launch *l = &e->launches[0];
    tap_str_eq(l->mangled, "_Z13copyCoalescedPfPKfm", "normal: the mangled name is kept");
    tap_ok(l->grid.x == 4096 && l->grid.y == 1 && l->block.x == 256 && l->stream == 7 &&
               l->context == 1 && l->shared_bytes == 0,
           "normal: the launch's shape, stream and context");
    tap_near(l->duration_ms, 0.0048, 1e-12, "normal: a profiled launch's duration from "
                                            "gpu__time_duration.sum");
    tap_near(metric_value(l, "gld_transactions_per_request"), 4, 1e-12,
             "normal: gld 4 sectors/request derived from the counters");
    tap_near(metric_value(l, "gst_efficiency"), 100, 1e-9, "normal: gst efficiency 100 %");
    tap_near(metric_value(l, "dram_write_bytes"), 482816, 0, "normal: DRAM bytes written");
    const gp_metric_value *shared = metric(l, "shared_efficiency");
    tap_ok(shared && !shared->valid && strcmp(shared->why, "no shared-memory accesses") == 0,
           "normal: a metric without a value says why");
    tap_near(e->launches[2].duration_ms, 0.020512, 1e-12,
             "normal: an unprofiled launch timed by its kernel line");
    tap_ok(e->launches[2].metrics.n_metrics == 0 && e->launches[2].grid.x == 4096,
           "normal: an unprofiled launch has its shape and no metrics");
}

static void several_processes(const gp_report *r)
{
    const gp_exec_info *e = &r->exec;
    tap_ok(e->processes == 2 && e->n_launches == 5 && e->n_devices == 1,
           "processes: two processes, five launches, one device described once");
    tap_ok(launch_is(r, 0, 801, 1, COALESCED, false) &&
               launch_is(r, 1, 801, 2, COALESCED, false) &&
               launch_is(r, 2, 802, 1, "scaleInPlace(float *, unsigned int)", true) &&
               launch_is(r, 3, 802, 2, "scaleInPlace(float *, unsigned int)", false) &&
               launch_is(r, 4, 802, 3, "scaleInPlace(float *, unsigned int)", false),
           "processes: launches by process, then launch order");
    tap_near(e->launches[1].duration_ms, 0.003553, 1e-12,
             "processes: a timed launch of the first process");
    tap_ok(r->n_warnings == 2 &&
               has_warning(r, "the GPU's counters are busy (CUPTI_ERROR_HARDWARE_BUSY from "
                               "cuptiRangeProfilerStart)") &&
               has_warning(r, "another process is profiling this GPU; try again when it "
                               "is done"),
           "processes: one process's warning, with its hint");
}

static void crashed_run(const gp_report *r)
{
    const char *name[] = {"beforeAbort(float *, unsigned int)"};
    tap_ok(numbered_launches(r, 705, 4, name, 1, true),
           "crashed: the 4 launches written before abort() are reported, profiled");
    tap_ok(r->n_warnings == 1 && has_warning(r, "process 705 " CONTEXT_LOST),
           "crashed: without its end record, the process is said to have ended abnormally");
}

static void torn_line(const gp_report *r)
{
    tap_ok(r->exec.n_launches == 2 && launch_is(r, 0, 685, 1, COALESCED, true) &&
               launch_is(r, 1, 685, 2, COALESCED, true),
           "torn: the kernel line cut by the program's death is skipped, the rest read");
    tap_ok(r->n_warnings == 1 && has_warning(r, "process 685 " CONTEXT_LOST),
           "torn: the only warning is that the process did not end normally");
}

static void graph_nodes(const gp_report *r)
{
    const gp_exec_info *e = &r->exec;
    tap_ok(e->n_launches == 7 && launch_is(r, 0, 714, 1, "eagerLaunch(int *, unsigned int)",
                                           true),
           "graph: the launch outside the graph is profiled");
    const char *names[] = {"graphFill(int *, const int *, unsigned int)",
                           "graphScale(int *, unsigned int)",
                           "graphSum(int *, const int *, unsigned int)"};
    bool nodes = e->n_launches == 7;
    for (size_t i = 0; nodes && i < 6; i++) {
        const gp_exec_launch *l = &e->launches[1 + i];
        nodes = launch_is(r, 1 + i, 714, 5 + i / 3, names[i % 3], false) && l->graph == 2 &&
                l->graph_node == 8589934592ull + i % 3 && l->duration_ms > 0;
    }
    tap_ok(nodes, "graph: two graph launches, each node a timed launch of its own, in node "
                  "order");
    tap_ok(nodes && e->launches[3].shared_bytes == 1024,
           "graph: a node's dynamic shared memory");
    tap_ok(r->n_warnings == 2 &&
               strncmp(r->warnings[0], "kernels launched from CUDA graphs are timed", 43) == 0 &&
               strcmp(r->warnings[1], "to profile such a kernel, launch it outside a graph") == 0,
           "graph: the warning, then its hint");
}

static void timing_only(const gp_report *r)
{
    const gp_exec_info *e = &r->exec;
    const char *names[] = {"void manyTiny<0>(unsigned int *)",
                           "void manyTiny<1>(unsigned int *)"};
    bool timed = true;
    for (size_t i = 0; i < e->n_launches; i++)
        timed = timed && e->launches[i].duration_ms > 0;
    tap_ok(numbered_launches(r, 723, 20, names, 2, false) && timed,
           "timing: 20 timed launches, template names demangled from the name records");
    tap_near(e->n_launches ? e->launches[0].duration_ms : 0, 0.001248, 1e-12,
             "timing: the first launch's duration from its kernel line");
    tap_ok(r->profiler.state == GP_PROF_DISABLED && r->n_warnings == 0,
           "timing: no profiler record, no profiler, no warnings");
}

static void warning_without_hint(const gp_report *r)
{
    tap_ok(r->n_warnings == 1 && has_warning(r, "the kernel filter does not compile here: "
                                                "nothing was profiled") &&
               r->exec.n_launches == 1 && !r->exec.launches[0].profiled,
           "bad-filter: a warning without a hint is one line; its launch is timed");
}

static void metric_list(const gp_report *r)
{
    const gp_exec_launch *l = r->exec.n_launches == 1 ? &r->exec.launches[0] : NULL;
    tap_ok(l && l->profiled && l->metrics.n_metrics == 2 &&
               strcmp(r->profiler.metric_set, "list") == 0 && r->profiler.passes == 1,
           "list: one profiled launch, the two metrics asked for");
    tap_near(l ? metric_value(l, "dram_read_bytes") : 0, 2223872, 0,
             "list: a catalogue metric's value");
    const gp_metric_value *raw = l ? metric(l, "no_such_counter.sum") : NULL;
    tap_ok(raw && !raw->valid &&
               strcmp(raw->why, "no_such_counter.sum is not available on GH100") == 0,
           "list: a raw name the chip lacks says so");
}

static void unknown_record(const gp_report *r)
{
    tap_ok(r->exec.n_launches == 4 && r->n_warnings == 0 &&
               launch_is(r, 0, 685, 1, COALESCED, true),
           "unknown: a record of a newer library is passed over, the rest read as normal");
}

static void values_not_matching(const gp_report *r)
{
    const gp_exec_info *e = &r->exec;
    tap_ok(e->n_launches == 4 && launch_is(r, 0, 685, 1, COALESCED, true) &&
               launch_is(r, 1, 685, 2, COALESCED, false),
           "mismatch: the launch with one value too few is reported without counters");
    tap_ok(e->n_launches == 4 && e->launches[1].metrics.n_metrics == 0 &&
               e->launches[1].duration_ms < 0,
           "mismatch: no metrics, and no duration (a profiled kernel has no kernel line)");
    tap_ok(r->n_warnings == 1 &&
               strcmp(r->warnings[0], "685.jsonl line 5: values: 17 values for the 18 "
                                     "counters of the context's profiler record: the "
                                     "launch is reported without counters") == 0,
           "mismatch: a warning names the file, line and field");
}

/* --replay=rotate's: no launch has both passes; the summary combines them. */
static void rotate_summary(const gp_report *r)
{
    const gp_exec_launch *first = r->exec.n_launches == 3 ? &r->exec.launches[0] : NULL;
    tap_ok(first && first->passes == 1 && first->duration_ms < 0,
           "rotate: the SASS launch carries the first pass only, and no time");
    gp_exec_kernel *k = NULL;
    size_t nk = 0;
    if (!tap_ok(gp_exec_summarize(&r->exec, &k, &nk) == GP_OK && nk == 1, "rotate: summarized"))
        return;
    const gp_metric_stats *thr = NULL, *eff = NULL, *dram = NULL;
    for (size_t i = 0; i < k[0].n_metrics; i++) {
        const char *key = k[0].metrics[i].average.key;
        if (strcmp(key, "gld_throughput") == 0)
            thr = &k[0].metrics[i];
        else if (strcmp(key, "gld_efficiency") == 0)
            eff = &k[0].metrics[i];
        else if (strcmp(key, "dram_read_bytes") == 0)
            dram = &k[0].metrics[i];
    }
    tap_ok(k[0].passes == 3 && k[0].timed == 2, "rotate: the kernel has both passes, 2 timed");
    tap_ok(eff && !eff->combined && eff->launches == 1 && eff->average.valid,
           "rotate: gld_efficiency from its one launch");
    tap_ok(dram && dram->launches == 2 && fabs(dram->average.value - (306432 + 256) / 2.0) < 1e-9,
           "rotate: DRAM bytes averaged over the two launches of the second pass");
    /* 32 x 131072 sectors over the mean duration of the two timed launches (4960, 4800 ns). */
    tap_ok(thr && thr->combined && thr->launches == 1 && thr->average.valid &&
               fabs(thr->average.value - 32.0 * 131072 / 4880.0) < 1e-9 && !thr->min.valid,
           "rotate: gld_throughput combined from the sectors of one launch and the mean duration "
           "of two (%g GB/s)", thr ? thr->average.value : NAN);
    gp_exec_summary_free(k, nk);
}

/* --replay=auto's records: a launch with both passes, two with the uninstrumented one. */
static void rotated_launches(const gp_report *r)
{
    const gp_exec_info *e = &r->exec;
    tap_ok(r->profiler.has_replay && r->profiler.replay == GP_EXEC_REPLAY_AUTO &&
               r->profiler.pass_groups == 2,
           "rotated: the replay and the two pass groups from the profiler record");
    tap_ok(e->n_launches == 3 && e->launches[0].passes == 3 && e->launches[1].passes == 2 &&
               e->launches[2].passes == 2,
           "rotated: each launch's passes (both, then the second)");
    const gp_exec_launch *first = &e->launches[0], *later = &e->launches[1];
    tap_near(metric_value(first, "gst_efficiency"), 100, 1e-9,
             "rotated: the launch of both passes has its SASS metrics");
    const gp_metric_value *eff = metric(later, "gst_efficiency");
    tap_ok(eff && !eff->valid && strstr(eff->why, "not collected in this launch"),
           "rotated: a launch of the second pass has its SASS metrics n/a, saying why");
    tap_near(metric_value(later, "dram_read_bytes"), 306432, 0,
             "rotated: ... and its own DRAM bytes");
    tap_near(later->duration_ms, 0.00496, 1e-12,
             "rotated: ... and its duration from its counters");
    size_t counters = later->metrics.n_counters;
    tap_ok(counters == 6, "rotated: its set holds the 6 counters its pass collected (%zu)",
           counters);
}

/* ---- texts no library writes ------------------------------------------------------------- */

#define PROCESS "{\"t\":\"process\",\"pid\":9,\"ppid\":1}\n"
#define END "{\"t\":\"end\",\"pid\":9}\n"
#define NAME "{\"t\":\"name\",\"pid\":9,\"n\":1,\"name\":\"_Z1kv\"}\n"
#define KERNEL_LINE(id, start, end) "K 9 " #id " 1 0 7 1 2 1 1 32 1 1 0 " #start " " #end " 0 0\n"
#define LAUNCH(fields) "{\"t\":\"launch\",\"pid\":9,\"id\":1,\"context\":1,\"device\":0," \
                       "\"stream\":7,\"kernel\":\"_Z1kv\"," fields "}\n"
#define SHAPE "\"grid\":[2,1,1],\"block\":[32,1,1],\"smem\":0"
#define PROFILER(context, set, counters, metrics, units, missing)                               \
    "{\"t\":\"profiler\",\"pid\":9,\"context\":" #context ",\"chip\":\"GH100\",\"passes\":1,"    \
    "\"set\":\"" set "\",\"counters\":[" counters "],\"metrics\":[" metrics "],\"units\":["   \
    units "],\"missing\":[" missing "]}\n"
#define DURATION "\"gpu__time_duration.sum\""
#define RAW "\"x.sum\""

/* One file, 9.jsonl, of exactly this text (so that a read past its end is a read past the
 * heap block, for the sanitizers). */
int read_text(const char *text, gp_report *r)
{
    const size_t len = strlen(text);
    char *copy = malloc(len ? len : 1);
    memcpy(copy, text, len);
    const gp_records_text file = {"9.jsonl", copy, len};
    gp_report_init(r);
    const int rc = gp_records_read_texts(&file, 1, r);
    free(copy);
    return rc;
}

/* Does the text read into `launches` launches, none profiled, and one warning, `warning`? */
static bool reads_with_warning(const char *text, size_t launches, const char *warning)
{
    gp_report r;
    const int rc = read_text(text, &r);
    bool ok = rc == GP_OK && r.exec.n_launches == launches && r.n_warnings == 1 &&
              strcmp(r.warnings[0], warning) == 0;
    for (size_t i = 0; ok && i < launches; i++)
        ok = !r.exec.launches[i].profiled;
    if (!ok)
        tap_diag("status %d, %zu launches, %zu warnings: %s", rc, r.exec.n_launches,
                 r.n_warnings, r.n_warnings ? r.warnings[0] : "");
    gp_report_free(&r);
    return ok;
}

static void bad_values(void)
{
    tap_ok(reads_with_warning(PROCESS "{\"t\":\"launch\",\"pid\":null,\"id\":1,\"context\":1,"
                                      "\"device\":0,\"stream\":7,\"kernel\":\"_Z1kv\"," SHAPE
                                      ",\"profiled\":0}\n" END,
                              0, "9.jsonl line 2: pid: expected a whole number: the record is "
                                 "ignored"),
           "a launch whose pid is null is ignored with a warning, never cast");
    tap_ok(reads_with_warning(PROCESS LAUNCH("\"grid\":[1e300,1,1],\"block\":[32,1,1],"
                                             "\"smem\":0,\"profiled\":0") END,
                              0, "9.jsonl line 2: grid[0]: must be from 0 to 4294967295: the "
                                 "record is ignored"),
           "a grid too large for its type: the record is ignored");
    tap_ok(reads_with_warning(PROCESS "{\"t\":\"device\",\"pid\":9,\"context\":1,\"name\":\"G\"}\n"
                                  END,
                              0, "9.jsonl line 2: device: missing: the record is ignored"),
           "a device record without its ordinal is ignored with a warning");
    gp_report r;
    int rc = read_text(PROCESS "[1,2]\n{\"pid\":9}\n" END, &r);
    tap_ok(rc == GP_OK && r.n_warnings == 2 &&
               strcmp(r.warnings[0], "9.jsonl line 2: expected an object: the record is "
                                     "ignored") == 0 &&
               strcmp(r.warnings[1], "9.jsonl line 3: t: missing: the record is ignored") == 0,
           "a line that is not an object, and a record without a type, are said and ignored");
    gp_report_free(&r);
}

static void kernel_lines(void)
{
    gp_report r;
    int rc = read_text(PROCESS NAME KERNEL_LINE(1, 1000, 3000) KERNEL_LINE(2, 5000, 4000) END, &r);
    tap_ok(rc == GP_OK && r.exec.n_launches == 2 && r.n_warnings == 0 &&
               launch_is(&r, 0, 9, 1, "k()", false) && launch_is(&r, 1, 9, 2, "k()", false),
           "kernel lines: each a launch, named by its name record");
    tap_near(r.exec.n_launches == 2 ? r.exec.launches[0].duration_ms : 0, 0.002, 1e-12,
             "kernel lines: the time from start and end");
    tap_ok(r.exec.n_launches == 2 && r.exec.launches[1].duration_ms < 0,
           "kernel lines: a kernel said to end before it starts has no known time");
    gp_report_free(&r);

    rc = read_text(PROCESS "K 4294967296 1 1 0 7 1 2 1 1 32 1 1 0 1 2 0 0\n"
                           "K 9 1 1 0 7 1 2 1 1 99999999999999999999999 1 1 0 1 2 0 0\n"
                           "K 9 1 1 0 7 1 2 1 1 32 1 1 0 1 2 0\n"
                           "K 9 1 1 0 7 1 2 1 1 32 1 1 0 1 2 0 0 0\n"
                           "K 9 1 1 0 7 1 -2 1 1 32 1 1 0 1 2 0 0\n" END,
                   &r);
    tap_ok(rc == GP_OK && r.exec.n_launches == 0 && r.n_warnings == 2 &&
               strcmp(r.warnings[0], "9.jsonl line 2: a kernel line's pid is out of its range: "
                                     "the line is ignored") == 0 &&
               strcmp(r.warnings[1], "9.jsonl line 3: a kernel line's grid or block is out of "
                                     "its range: the line is ignored") == 0,
           "kernel lines: numbers too large for their fields are said; lines of another shape "
           "are passed over");
    gp_report_free(&r);
}

/* A collective kernel's launches (NCCL's, here timed only) carry the note that says what
 * their time includes; other kernels' carry none. */
static void collective_note(void)
{
    gp_report r;
    int rc = read_text(PROCESS "{\"t\":\"name\",\"pid\":9,\"n\":1,\"name\":"
                       "\"_Z29ncclDevKernel_AllReduce_Sum_f32_RING_LL24ncclDevKernelArgsStorageILm4096EE\"}\n"
                       KERNEL_LINE(1, 1000, 3000) END, &r);
    tap_ok(rc == GP_OK && r.exec.n_launches == 1 && r.exec.launches[0].note &&
               strcmp(r.exec.launches[0].note, gp_collective_note) == 0,
           "a collective's launch: noted as waiting for its peers, never replayed");
    gp_report_free(&r);
    rc = read_text(PROCESS NAME KERNEL_LINE(1, 1000, 3000) END, &r);
    tap_ok(rc == GP_OK && r.exec.n_launches == 1 && r.exec.launches[0].note == NULL,
           "another kernel's launch: no note");
    gp_report_free(&r);
}

/* A last line cut by a crash: skipped, what came before kept, and only the missing end said. */
static void torn_lines(void)
{
    static const struct {
        const char *text, *what;
        size_t launches;
    } cases[] = {
        {PROCESS NAME "K 9 1 1 0 7 1 2 1 1 32 1 1 0 1 2", "a kernel line", 0},
        {PROCESS LAUNCH(SHAPE ",\"profiled\":0") "{\"t\":\"launch\",\"pid\":9,\"id\":2,",
         "a launch record", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gp_report r;
        const int rc = read_text(cases[i].text, &r);
        tap_ok(rc == GP_OK && r.exec.n_launches == cases[i].launches && r.n_warnings == 1 &&
                   has_warning(&r, "process 9 " CONTEXT_LOST),
               "torn %s: skipped, the lines before it read, the process said to end abnormally",
               cases[i].what);
        gp_report_free(&r);
    }
}

static void values_of_another_type(void)
{
    tap_ok(reads_with_warning(PROCESS PROFILER(1, "list", DURATION, "", "", "")
                                  LAUNCH(SHAPE ",\"profiled\":1,\"values\":[\"fast\"]") END,
                              1, "9.jsonl line 3: values[0]: expected a number or null: the "
                                 "launch is reported without counters"),
           "a counter value that is not a number: the launch is kept, without counters");
    tap_ok(reads_with_warning(PROCESS PROFILER(1, "some", "", "", "", "") END, 0,
                              "9.jsonl line 2: set: expected one of 'default', 'all', 'list': "
                              "the record is ignored"),
           "a profiler record of an unknown metric set is ignored with a warning");
}

/* A collector's missing raw metric points into the collector: a second context's record
 * must not move the first's (found by fuzz_records: a use after free). */
static void two_contexts(void)
{
    gp_report r;
    int rc = read_text(PROCESS PROFILER(1, "list", DURATION, RAW, "\"\"", RAW)
                           PROFILER(2, "list", DURATION, RAW, "\"\"", RAW)
                               PROFILER(3, "list", DURATION, RAW, "\"\"", RAW)
                                   LAUNCH(SHAPE ",\"profiled\":1,\"values\":[2000]") END,
                       &r);
    const gp_exec_launch *l = rc == GP_OK && r.exec.n_launches == 1 ? &r.exec.launches[0] : NULL;
    const gp_metric_value *raw = l ? metric(l, "x.sum") : NULL;
    tap_ok(raw && !raw->valid && strcmp(raw->why, "x.sum is not available on GH100") == 0,
           "several contexts: the first one's raw metric still says it is missing");
    tap_near(l ? l->duration_ms : 0, 0.002, 1e-12, "several contexts: the launch's duration");
    gp_report_free(&r);
}

/* A raw metric's value is its counter's: one the record does not list would be read past
 * the launch's values (found reading the code; fuzz regression raw-metric-not-among-...). */
static void raw_metric_without_counter(void)
{
    tap_ok(reads_with_warning(PROCESS PROFILER(1, "list", DURATION, RAW, "\"\"", "\"\"")
                                  LAUNCH(SHAPE ",\"profiled\":1,\"values\":[2000]") END,
                              1, "9.jsonl line 2: metrics[0]: a raw metric that is not among "
                                 "the counters: the record is ignored"),
           "a raw metric the record's counters lack: the profiler record is ignored");
}

/* A GEMM's launch that loads through cp.async: its gld/req has no value and says why it is
 * empty, derived from the record's counters; the per-kernel summary keeps the note. */
static void cp_async_note(void)
{
    gp_report r;
    int rc = read_text(
        PROCESS PROFILER(1, "list",
                         "\"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum\","
                         "\"smsp__sass_inst_executed_op_global_ld.sum\","
                         "\"smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum\","
                         DURATION,
                         "\"gld_transactions_per_request\"", "\"sectors/request\"", "\"\"")
            LAUNCH(SHAPE ",\"profiled\":1,\"values\":[0,0,4096,2000]") END,
        &r);
    const gp_exec_launch *l = rc == GP_OK && r.exec.n_launches == 1 ? &r.exec.launches[0] : NULL;
    const gp_metric_value *gld = l ? metric(l, "gld_transactions_per_request") : NULL;
    tap_ok(gld && !gld->valid && strcmp(gld->why, "no requests") == 0 &&
               strstr(gld->note, "cp.async") && strstr(gld->note, "cp_async_*"),
           "exec: a launch of LDGSTS loads: gld/req n/a, with the cp.async note ('%s')",
           gld ? gld->note : "");
    gp_exec_kernel *k = NULL;
    size_t nk = 0;
    const bool summed = rc == GP_OK && gp_exec_summarize(&r.exec, &k, &nk) == GP_OK && nk == 1;
    tap_ok(summed && k[0].n_metrics == 1 && strstr(k[0].metrics[0].average.note, "cp.async"),
           "exec: the kernel's summary keeps the note");
    gp_exec_summary_free(k, nk);
    gp_report_free(&r);
}

static void many_bad_records(void)
{
    char text[4096] = PROCESS;
    for (int i = 0; i < 12; i++)
        strcat(text, "{\"t\":\"end\"}\n");
    strcat(text, END);
    gp_report r;
    int rc = read_text(text, &r);
    tap_ok(rc == GP_OK && r.n_warnings == 9 &&
               strcmp(r.warnings[8], "4 more records were not as gpuprof's library writes them "
                                     "(the first 8 are said above)") == 0,
           "the first 8 bad records are said one by one, the others counted");
    gp_report_free(&r);
}

static void several_texts(void)
{
    const char *a = "{\"t\":\"process\",\"pid\":3}\n"
                    "{\"t\":\"name\",\"pid\":3,\"n\":1,\"name\":\"_Z1av\"}\n"
                    "K 3 1 1 0 7 1 2 1 1 32 1 1 0 1 2 0 0\n{\"t\":\"end\",\"pid\":3}\n";
    const char *b = "{\"t\":\"process\",\"pid\":2}\n"
                    "{\"t\":\"name\",\"pid\":2,\"n\":1,\"name\":\"_Z1bv\"}\n"
                    "K 2 1 1 0 7 1 2 1 1 32 1 1 0 1 2 0 0\n";
    const gp_records_text files[] = {{"3.jsonl", a, strlen(a)}, {"2.jsonl", b, strlen(b)}};
    gp_report r;
    gp_report_init(&r);
    int rc = gp_records_read_texts(files, 2, &r);
    tap_ok(rc == GP_OK && r.exec.processes == 2 && launch_is(&r, 0, 2, 1, "b()", false) &&
               launch_is(&r, 1, 3, 1, "a()", false),
           "several texts: each process's names are its own; launches sorted by process");
    tap_ok(r.n_warnings == 1 && has_warning(&r, "process 2 " CONTEXT_LOST),
           "several texts: only the process without its end record is said");
    gp_report_free(&r);
}


/* ---- copies, memsets and unified memory ---------------------------------------------------- */

/* tests/fixtures/records/activities: what copies.cu and umfaults.cu do, written by hand. */
static void activities_run(const gp_report *r)
{
    const gp_exec_info *e = &r->exec;
    tap_ok(e->n_activities == 7 && e->n_launches == 1 && r->n_warnings == 0,
           "activities: 7 copies and memsets beside the 1 kernel, no warning");
    if (e->n_activities != 7)
        return;
    static const gp_activity_kind kinds[] = {GP_ACTIVITY_MEMSET, GP_ACTIVITY_HTOD,
                                             GP_ACTIVITY_HTOD,   GP_ACTIVITY_DTOD,
                                             GP_ACTIVITY_DTOH,   GP_ACTIVITY_DTOH,
                                             GP_ACTIVITY_MEMSET};
    static const uint64_t ids[] = {1, 2, 3, 5, 6, 7, 8};
    bool in_order = true;
    for (size_t i = 0; i < 7; i++)
        in_order = in_order && e->activities[i].kind == kinds[i] && e->activities[i].id == ids[i] &&
                   e->activities[i].bytes == 4194304 && e->activities[i].pid == 731;
    tap_ok(in_order, "activities: each copy and memset with its kind and bytes, in issue order");
    tap_ok(e->activities[1].src == GP_MEMORY_PAGEABLE && e->activities[1].dst == GP_MEMORY_DEVICE &&
               e->activities[2].src == GP_MEMORY_PINNED && e->activities[5].dst == GP_MEMORY_PINNED &&
               e->activities[0].dst == GP_MEMORY_DEVICE,
           "activities: the memory each side of a copy, and a memset's");
    tap_ok(e->activities[0].start_ns == 0 && e->activities[0].end_ns == 3104 &&
               e->activities[1].start_ns == 13104,
           "activities: times from the first one's start, exact");
    const gp_um_stats *h = &e->unified[GP_UM_BYTES_HTOD], *c = &e->unified[GP_UM_CPU_PAGE_FAULTS];
    tap_ok(h->events == 3 && h->total == 4194304 && h->min == 1048576 && h->max == 2097152 &&
               h->time_ns == 98304 + 51200 + 50176,
           "unified memory: bytes host to device, summed with their least, most and time");
    tap_ok(c->events == 2 && c->total == 2 && c->time_ns == 0,
           "unified memory: CPU page faults counted, without a duration");
    tap_ok(e->unified[GP_UM_GPU_PAGE_FAULTS].events == 4 && e->unified[GP_UM_THRASHING].events == 1 &&
               e->unified[GP_UM_THROTTLING].events == 0 && e->unified[GP_UM_BYTES_DTOH].total == 4194304,
           "unified memory: GPU fault groups, thrashing; a counter without records stays 0");
}

#define COPY_LINE(id, kind, src, dst) "M 9 " #id " 1 0 7 " #kind " " #src " " #dst " 64 10 20\n"

static void activity_lines(void)
{
    gp_report r;
    int rc = read_text(PROCESS COPY_LINE(3, 1, 2, 3) "S 9 2 1 0 7 3 128 5 9\n"
                               "U 9 3 7 0 0 0 0\n" "M 9 4 1 0 7 10 3 3 64 30 25\n" END, &r);
    const gp_exec_activity *a = r.exec.activities;
    tap_ok(rc == GP_OK && r.exec.n_activities == 3 && r.n_warnings == 0 &&
               a[0].kind == GP_ACTIVITY_MEMSET && a[0].bytes == 128 &&
               a[1].kind == GP_ACTIVITY_HTOD && a[2].kind == GP_ACTIVITY_PTOP &&
               r.exec.unified[GP_UM_CPU_PAGE_FAULTS].total == 7,
           "activity lines: a copy, a memset, a peer copy and a counter, sorted by id");
    tap_ok(r.exec.n_activities == 3 && a[0].start_ns == 0 && a[1].start_ns == 5 &&
               a[2].end_ns < a[2].start_ns,
           "activity lines: times from the first start; an end before the start: unknown");
    gp_report_free(&r);

    rc = read_text(PROCESS COPY_LINE(1, 11, 2, 3) COPY_LINE(1, 1, 8, 3)
                   "S 9 1 1 0 7 9 8 1 2\n" "U 9 9 1 0 0 0 0\n" "U 9 0 1 0 0 0 0\n"
                   "M 9 1 1 0 7 1 2 3 64 10\n" "S 9 1 1 0 7 3 8 1 2 0\n" END, &r);
    tap_ok(rc == GP_OK && r.exec.n_activities == 0 && r.n_warnings == 5 &&
               strcmp(r.warnings[0], "9.jsonl line 2: a copy line's copy kind is out of its "
                                     "range: the line is ignored") == 0 &&
               strcmp(r.warnings[1], "9.jsonl line 3: a copy line's memory kind is out of its "
                                     "range: the line is ignored") == 0 &&
               strcmp(r.warnings[2], "9.jsonl line 4: a memset line's memory kind is out of "
                                     "its range: the line is ignored") == 0 &&
               strcmp(r.warnings[3], "9.jsonl line 5: a unified memory line's counter is out "
                                     "of its range: the line is ignored") == 0,
           "activity lines: kinds beyond the report's are said; lines of another length are "
           "passed over");
    gp_report_free(&r);
}

/* --replay=auto's footprint records: the first decision not to replay is the report's, with
 * its figures, whatever came before or after; a malformed one is ignored with a warning. */
#define FOOTPRINT(context, replay, held, free)                                                  \
    "{\"t\":\"footprint\",\"pid\":9,\"context\":" #context ",\"replay\":" #replay          \
    ",\"held\":" #held ",\"free\":" #free ",\"total\":150000000000,"                       \
    "\"budget\":17179869184}\n"

static void footprints(void)
{
    gp_report r;
    int rc = read_text(PROCESS FOOTPRINT(1, 1, 2000000000, 148000000000)
                           FOOTPRINT(1, 0, 107374182400, 42625817600)
                               FOOTPRINT(2, 0, 110000000000, 40000000000)
                                   FOOTPRINT(1, 1, 1000, 149999999000) END,
                       &r);
    const gp_auto_footprint *f = &r.profiler.footprint;
    tap_ok(rc == GP_OK && r.n_warnings == 0 && f->known && !f->replays &&
               f->held == 107374182400ull && f->free == 42625817600ull &&
               f->total == 150000000000ull && f->budget == 17179869184ull,
           "footprint records: the first decision not to replay is kept, with its figures");
    char line[512] = "";
    tap_ok(gp_exec_describe_footprint(&r.profiler, line, sizeof line) &&
               strstr(line, "did not replay") && strstr(line, "100.0 GiB of device memory") &&
               strstr(line, "does not fit in the 39.7 GiB free"),
           "footprint records: said as the 100.0 GiB in use not fitting in 39.7 GiB free (%s)",
           line);
    gp_report_free(&r);
    rc = read_text(PROCESS FOOTPRINT(1, 1, 2000000000, 148000000000) END, &r);
    tap_ok(rc == GP_OK && r.profiler.footprint.known && r.profiler.footprint.replays,
           "footprint records: a decision to replay alone is kept");
    gp_report_free(&r);
    rc = read_text(PROCESS END, &r);
    tap_ok(rc == GP_OK && !r.profiler.footprint.known &&
               !gp_exec_describe_footprint(&r.profiler, line, sizeof line),
           "footprint records: none, nothing said");
    gp_report_free(&r);
    tap_ok(reads_with_warning(PROCESS "{\"t\":\"footprint\",\"pid\":9,\"context\":1,"
                              "\"replay\":2,\"held\":1,\"free\":1,\"total\":2,\"budget\":1}\n"
                              END, 0, "9.jsonl line 2: replay: must be from 0 to 1: the record "
                              "is ignored"),
           "footprint records: a malformed one is ignored with a warning");
}

/* --nvtx: `range` records number paths; an `R` line gives the kernel of the `K` line before
 * it its path, a launch record its "range"; a number without a record, or an R line after
 * another kernel's K line, is said and passed over. */
#define RANGE(n, path) "{\"t\":\"range\",\"pid\":9,\"n\":" #n ",\"path\":\"" path "\"}\n"
static void nvtx_ranges(void)
{
    gp_report r;
    int rc = read_text(PROCESS NAME RANGE(1, "step/forward") RANGE(2, "step")
                       KERNEL_LINE(1, 1000, 3000) "R 9 1 0 1 0\n" KERNEL_LINE(2, 4000, 5000)
                       KERNEL_LINE(3, 6000, 7000) "R 9 3 0 2 0\n" END, &r);
    tap_ok(rc == GP_OK && r.n_warnings == 0 && r.exec.n_launches == 3 &&
               r.exec.launches[0].range && !strcmp(r.exec.launches[0].range, "step/forward") &&
               !r.exec.launches[1].range && r.exec.launches[2].range &&
               !strcmp(r.exec.launches[2].range, "step"),
           "ranges: R lines give the kernels before them their paths; none without one");
    gp_report_free(&r);
    rc = read_text(PROCESS NAME RANGE(1, "outer") LAUNCH(SHAPE ",\"profiled\":0,\"range\":1")
                   END, &r);
    tap_ok(rc == GP_OK && r.n_warnings == 0 && r.exec.n_launches == 1 &&
               r.exec.launches[0].range && !strcmp(r.exec.launches[0].range, "outer"),
           "ranges: a launch record's range");
    gp_report_free(&r);
    /* A graph kernel node: its launch's path, then its capture's (graph 4, node 77). */
    rc = read_text(PROCESS NAME RANGE(1, "step") RANGE(2, "capture/aten::linear")
                   "K 9 5 1 0 7 1 2 1 1 32 1 1 0 1000 3000 4 77\n" "R 9 5 77 1 2\n"
                   "K 9 5 1 0 7 1 2 1 1 32 1 1 0 3000 4000 4 78\n" "R 9 5 78 0 2\n" END, &r);
    tap_ok(rc == GP_OK && r.n_warnings == 0 && r.exec.n_launches == 2 &&
               r.exec.launches[0].range &&
               !strcmp(r.exec.launches[0].range, "step/capture/aten::linear") &&
               r.exec.launches[1].range &&
               !strcmp(r.exec.launches[1].range, "capture/aten::linear"),
           "ranges: a graph node's capture path nests inside its launch's (%s)",
           r.exec.n_launches ? r.exec.launches[0].range : "");
    gp_report_free(&r);
    rc = read_text(PROCESS NAME KERNEL_LINE(1, 1000, 3000) "R 9 1 0 5 0\n"
                   KERNEL_LINE(2, 4000, 5000) "R 9 1 0 5 0\n" END, &r);
    tap_ok(rc == GP_OK && r.exec.n_launches == 2 && !r.exec.launches[0].range &&
               r.n_warnings == 2 && strstr(r.warnings[0], "range 5 has no range record") &&
               strstr(r.warnings[1], "follows no K line of its kernel"),
           "ranges: an unknown number and a misplaced R line are said, nothing given (%s)",
           r.n_warnings ? r.warnings[0] : "");
    gp_report_free(&r);
}

/* --stalls: a context's `stalls` record names its reasons, its `stall` records count by
 * them. A reason's _not_issued twin is a part of its samples (into not_issued, not added to
 * the reason's); the same instruction from two contexts of a process is one instruction; a
 * stall record of an unknown context or a reason out of the list is said and passed over. */
#define STALL_REASONS "[\"smsp__pcsamp_warps_issue_stalled_long_scoreboard\"," \
                      "\"smsp__pcsamp_warps_issue_stalled_long_scoreboard_not_issued\"," \
                      "\"smsp__pcsamp_warps_issue_stalled_wait\",\"smsp__pcsamp_sample_count\"]"
#define STALLS_OF(context) "{\"t\":\"stalls\",\"pid\":9,\"context\":" #context \
    ",\"device\":0,\"period\":15,\"reasons\":" STALL_REASONS ",\"samples\":120," \
    "\"dropped\":2,\"non_user\":10,\"buffer_full\":0,\"failures\":0}\n"
#define STALL(context, pc, samples) "{\"t\":\"stall\",\"pid\":9,\"context\":" #context \
    ",\"kernel\":\"_Z4copyv\",\"code\":\"77\",\"pc\":" #pc ",\"file\":\"/s/copy.cu\"," \
    "\"line\":12,\"samples\":" samples "}\n"
static void stall_records(void)
{
    gp_report r;
    int rc = read_text(PROCESS STALLS_OF(1) STALL(1, 256, "[[0,40],[1,30],[2,5],[3,45]]")
                       STALL(1, 272, "[[2,7]]") STALLS_OF(2) STALL(2, 256, "[[0,8]]") END, &r);
    const gp_exec_stalls *s = &r.exec.stalls;
    const gp_exec_stall_pc *p = s->n_pcs == 2 ? &s->pcs[0] : NULL;
    tap_ok(rc == GP_OK && r.n_warnings == 0 && s->sampled && s->period_log2 == 15 &&
               s->samples == 240 && s->dropped == 4 && s->non_user == 20 && !s->buffer_full &&
               s->n_reasons == 2 && !strcmp(s->reasons[0], "long_scoreboard") &&
               !strcmp(s->reasons[1], "wait") && p && p->pid == 9 && p->code == 77 &&
               p->pc == 256 && !strcmp(p->kernel, "_Z4copyv") && p->file &&
               !strcmp(p->file, "/s/copy.cu") && p->line == 12 && p->samples[0] == 48 &&
               p->samples[1] == 5 && p->not_issued == 30 && s->pcs[1].pc == 272 &&
               s->pcs[1].samples[1] == 7 && s->pcs[1].samples[0] == 0,
           "stalls: reasons without their prefix, not-issued samples a part of their reason's, "
           "CUPTI's sample counter not a reason, one instruction over two contexts, CUPTI's "
           "totals added up");
    gp_report_free(&r);
    rc = read_text(PROCESS STALL(1, 256, "[[0,1]]") STALLS_OF(1) STALL(1, 256, "[[4,1]]") END,
                   &r);
    tap_ok(rc == GP_OK && r.exec.stalls.n_pcs == 1 && r.exec.stalls.pcs[0].samples[0] == 0 &&
               r.n_warnings == 2 && strstr(r.warnings[0], "before its context's stalls record") &&
               strstr(r.warnings[1], "reason 4 of 4"),
           "stalls: a record before its context's and a reason out of the list are said (%s)",
           r.n_warnings ? r.warnings[r.n_warnings - 1] : "");
    gp_report_free(&r);
}

void test_exec_read(void)
{
    footprints();
    check_case("normal", normal_run);
    check_case("processes", several_processes);
    check_case("crashed", crashed_run);
    check_case("torn", torn_line);
    check_case("graph", graph_nodes);
    check_case("timing", timing_only);
    check_case("bad-filter", warning_without_hint);
    check_case("list", metric_list);
    check_case("unknown", unknown_record);
    check_case("mismatch", values_not_matching);
    check_case("rotated", rotated_launches);
    check_case("rotate", rotate_summary);
    check_case("activities", activities_run);
    bad_values();
    kernel_lines();
    collective_note();
    torn_lines();
    values_of_another_type();
    two_contexts();
    raw_metric_without_counter();
    cp_async_note();
    many_bad_records();
    several_texts();
    activity_lines();
    nvtx_ranges();
    stall_records();
}
