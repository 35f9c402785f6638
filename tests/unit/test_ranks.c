/* Distributed jobs: the rank gpuprof
 * exec reads from --rank or the launcher's environment (src/exec/rank.c), and the rank view of
 * several ranks' reports (src/report/ranks.c, rank_merge.c; its JSON, render/json_ranks.c;
 * its tables, report/ranks_part.c). */
#include "tap.h"

#include "exec/rank.h"
#include "gpuprof/collectives.h"
#include "gpuprof/exec_modes.h"
#include "gpuprof/ranks.h"
#include "gpuprof/status.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the rank from the environment ------------------------------------------------------- */

/* The environment of a test: NAME=VALUE words, NULL-terminated. */
static const char *const *fake_env;

static char *fake_lookup(const char *name)
{
    const size_t n = strlen(name);
    for (const char *const *e = fake_env; e && *e; e++)
        if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
            return (char *)*e + n + 1;
    return NULL;
}

/* The rank found with --rank=option (-1: none) in the environment given. */
static gp_report find(int option, const char *const *env)
{
    gp_report r;
    gp_report_init(&r);
    fake_env = env;
    tap_ok(gp_exec_find_rank(option, fake_lookup, &r) == GP_OK, "rank: found without error");
    return r;
}

static bool is_rank(const gp_report *r, int rank, int size, const char *from)
{
    const gp_exec_rank *k = &r->exec.rank;
    return k->known && k->rank == rank && k->size == size && strcmp(k->from, from) == 0;
}

static void check_rank(int option, const char *const *env, int rank, int size, const char *from,
                       size_t warnings, const char *what)
{
    gp_report r = find(option, env);
    tap_ok(is_rank(&r, rank, size, from) && r.n_warnings == warnings, "rank: %s", what);
    for (size_t i = 0; i < r.n_warnings; i++)
        tap_diag("warning: %s", r.warnings[i]);
    gp_report_free(&r);
}

static void test_rank_sources(void)
{
    check_rank(-1, (const char *const[]){"RANK=3", "WORLD_SIZE=8", NULL}, 3, 8, "RANK", 0,
               "torchrun's RANK and WORLD_SIZE");
    check_rank(-1, (const char *const[]){"OMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_SIZE=4",
                                         NULL},
               1, 4, "OMPI_COMM_WORLD_RANK", 0, "Open MPI's variables");
    check_rank(-1, (const char *const[]){"PMI_RANK=0", "PMI_SIZE=2", NULL}, 0, 2, "PMI_RANK",
               0, "MPICH's PMI_RANK and PMI_SIZE");
    check_rank(-1, (const char *const[]){"SLURM_PROCID=5", "SLURM_NTASKS=6", NULL}, 5, 6,
               "SLURM_PROCID", 0, "srun's SLURM_PROCID and SLURM_NTASKS");
    check_rank(-1, (const char *const[]){"SLURM_PROCID=1", "SLURM_NTASKS=2", "RANK=7",
                                         "WORLD_SIZE=16", NULL},
               7, 16, "RANK", 0, "RANK first: torchrun under srun is torchrun's rank");
    check_rank(-1, (const char *const[]){"RANK=2", "SLURM_NTASKS=2", NULL}, 2, 0, "RANK", 0,
               "the size from the rank's own launcher only (SLURM_NTASKS is not torchrun's)");
    check_rank(4, (const char *const[]){"RANK=2", "WORLD_SIZE=8", NULL}, 4, 8, "--rank", 0,
               "--rank over the environment, the size from it");
    check_rank(0, (const char *const[]){NULL}, 0, 0, "--rank", 0, "--rank=0 alone: size unknown");
}

static void test_rank_malformed(void)
{
    check_rank(-1, (const char *const[]){"RANK=one", "SLURM_PROCID=3", "SLURM_NTASKS=4", NULL},
               3, 4, "SLURM_PROCID", 1, "a malformed RANK passed over with a warning");
    check_rank(-1, (const char *const[]){"RANK=2", "WORLD_SIZE=0", NULL}, 2, 0, "RANK", 1,
               "a world size of 0 passed over with a warning");
    check_rank(-1, (const char *const[]){"RANK=4", "WORLD_SIZE=4", NULL}, 4, 0, "RANK", 1,
               "a rank not below its world size: the size left out, with a warning");
    static const char *const bad[] = {"-1", "+1", " 1", "1 ", "", "0x10", "2147483648",
                                      "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char word[64];
        snprintf(word, sizeof word, "RANK=%s", bad[i]);
        gp_report r = find(-1, (const char *const[]){word, NULL});
        tap_ok(!r.exec.rank.known && r.n_warnings == 1 && strstr(r.warnings[0], "RANK="),
               "rank: RANK='%s' is no rank, and the warning names the variable", bad[i]);
        gp_report_free(&r);
    }
    gp_report r = find(-1, (const char *const[]){"RANK=2147483647", NULL});
    tap_ok(is_rank(&r, 2147483647, 0, "RANK"), "rank: the largest int is a rank");
    gp_report_free(&r);
    r = find(-1, (const char *const[]){"WORLD_SIZE=4", NULL});
    tap_ok(!r.exec.rank.known && r.n_warnings == 0, "rank: none without a rank variable");
    gp_report_free(&r);
}

/* ---- the rank view --------------------------------------------------------------------- */

/* A launch of a rank's report: duration < 0 untimed; read < 0 not profiled. */
static void add_launch(gp_report *r, const char *kernel, const char *mangled, double ms,
                       double read, double written)
{
    gp_exec_launch *l;
    if (gp_exec_add_launch(&r->exec, &l) != GP_OK)
        return;
    l->kernel = strdup(kernel);
    l->mangled = mangled ? strdup(mangled) : NULL;
    l->duration_ms = ms;
    l->profiled = read >= 0;
    if (!l->profiled)
        return;
    l->metrics.metrics = calloc(2, sizeof *l->metrics.metrics);
    if (!l->metrics.metrics)
        return;
    l->metrics.n_metrics = 2;
    const char *const keys[] = {"dram_read_bytes", "dram_write_bytes"};
    const double values[] = {read, written};
    for (int i = 0; i < 2; i++) {
        snprintf(l->metrics.metrics[i].key, GP_NAME_LEN, "%s", keys[i]);
        l->metrics.metrics[i].valid = true;
        l->metrics.metrics[i].value = values[i];
    }
}

static gp_report rank_report(int rank, int size)
{
    gp_report r;
    gp_report_init(&r);
    r.is_exec = true;
    snprintf(r.command, sizeof r.command, "exec");
    gp_report_set_command_line(&r, 2, (char *[]){"gpuprof", "exec"});
    gp_exec_set_program(&r.exec, 1, (char *[]){"./app"});
    r.exec.processes = 1;
    r.exec.pid = 100 + rank;
    r.exec.request = gp_exec_request_default();
    r.exec.rank = (gp_exec_rank){.known = true, .rank = rank, .size = size};
    snprintf(r.exec.rank.from, sizeof r.exec.rank.from, "RANK");
    return r;
}

static int fold(gp_rank_merge *m, gp_report *part, const char *file)
{
    const int rc = gp_rank_merge_add(m, part, file);
    gp_report_free(part);
    return rc;
}

/* Three ranks given out of order: rank 1 (a kernel untimed and unprofiled once), rank 0 (a
 * kernel of its own), rank 2 (tied with rank 1, not profiled). */
static int merge_three(gp_report *view)
{
    gp_rank_merge *m;
    gp_report_init(view);
    GP_TRY(gp_rank_merge_open(view, &m));
    gp_report r1 = rank_report(1, 4), r0 = rank_report(0, 4), r2 = rank_report(2, 4);
    add_launch(&r1, "k()", "_Z1kv", 1.0, 100, 50);
    add_launch(&r1, "k()", "_Z1kv", 2.0, 200, 150);
    add_launch(&r1, "k()", "_Z1kv", -1.0, -1, -1);
    gp_report_add_warning(&r1, "w");
    add_launch(&r0, "k()", "_Z1kv", 1.0, 10, 10);
    add_launch(&r0, "k()", "_Z1kv", 1.0, 10, 10);
    add_launch(&r0, "only0", NULL, 5.0, -1, -1);
    add_launch(&r2, "k()", "_Z1kv", 4.5, -1, -1);
    gp_report_add_warning(&r2, "w");
    int rc = fold(m, &r1, "r1.json");
    rc = rc ? rc : fold(m, &r0, "r0.json");
    rc = rc ? rc : fold(m, &r2, "r2.json");
    gp_report_free(&r0);
    gp_report_free(&r2);
    const int closed = gp_rank_merge_close(m, rc == GP_OK);
    return rc ? rc : closed;
}

static const gp_rank_cell *cell_of(const gp_rank_kernel *k, size_t rank)
{
    for (size_t c = 0; c < k->n_cells; c++)
        if (k->cells[c].rank == rank)
            return &k->cells[c];
    return NULL;
}

static void test_view_numbers(void)
{
    gp_report view;
    if (!tap_ok(merge_three(&view) == GP_OK && view.ranks, "rank view: three ranks merged"))
        return;
    const gp_rank_view *v = view.ranks;
    tap_ok(v->n_ranks == 3 && v->ranks[0].rank == 0 && v->ranks[1].rank == 1 &&
               v->ranks[2].rank == 2 && strcmp(v->ranks[1].file, "r1.json") == 0,
           "rank view: the ranks in order, whatever the order of the files");
    tap_ok(v->n_kernels == 2 && strcmp(v->kernels[0].kernel, "only0") == 0,
           "rank view: the most time on one rank first (only0: 5 ms)");
    const gp_rank_kernel *k = &v->kernels[1];
    const gp_rank_cell *c1 = cell_of(k, 1), *c0 = cell_of(k, 0), *c2 = cell_of(k, 2);
    tap_ok(c1 && c1->calls == 3 && c1->timed == 2 && c1->profiled == 2 &&
               fabs(c1->total_ms - 4.5) < 1e-12 && c1->total_estimated &&
               fabs(c1->dram_bytes - 750) < 1e-9 && c1->dram_estimated,
           "rank view: calls x the mean of the timed launches, calls x the means of the bytes "
           "(estimates: a launch untimed and unprofiled)");
    tap_ok(c0 && fabs(c0->total_ms - 2.0) < 1e-12 && !c0->total_estimated &&
               fabs(c0->dram_bytes - 40) < 1e-9 && !c0->dram_estimated,
           "rank view: every launch timed and profiled: exact");
    tap_ok(c2 && isnan(c2->dram_bytes) && !c2->dram_estimated,
           "rank view: no profiled launch, no DRAM bytes");
    tap_ok(fabs(k->time_ms.min - 2.0) < 1e-12 && fabs(k->time_ms.median - 4.5) < 1e-12 &&
               fabs(k->time_ms.max - 4.5) < 1e-12 && k->time_ms.ranks == 3 &&
               k->time_ms.estimated,
           "rank view: time spread 2 / 4.5 / 4.5 over 3 ranks, an estimate among them");
    tap_ok(fabs(k->dram_bytes.median - 395) < 1e-9 && k->dram_bytes.ranks == 2,
           "rank view: a median of two values is their mean");
    tap_ok(k->slowest == 1 && k->fastest == 0, "rank view: of ranks tied for the most time, "
           "the lowest is the slowest");
    tap_ok(v->kernels[0].n_cells == 1 && v->kernels[0].slowest == 0 && !v->kernels[0].mangled,
           "rank view: a kernel of one rank, told by its demangled name");
    tap_ok(fabs(v->ranks[0].kernel_ms - 7.0) < 1e-12 && v->ranks[0].launches == 3 &&
               v->world_size == 4,
           "rank view: a rank's kernel time and launches are its cells' sums");
    tap_ok(view.n_warnings == 1 && strcmp(view.warnings[0], "ranks 1, 2: w") == 0,
           "rank view: a warning of two ranks, once with its ranks");
    char missing[64];
    tap_ok(gp_rank_view_missing(v, missing, sizeof missing) == 1 &&
               strcmp(missing, "3") == 0, "rank view: rank 3 of 4 missing");
    gp_report_free(&view);
}

static void test_view_refusals(void)
{
    gp_report view, twice = rank_report(0, 4), none = rank_report(1, 4);
    gp_rank_merge *m;
    gp_report_init(&view);
    none.exec.rank.known = false;
    gp_report first = rank_report(0, 4);
    int rc = gp_rank_merge_open(&view, &m);
    rc = rc ? rc : fold(m, &first, "a.json");
    tap_ok(rc == GP_OK && fold(m, &twice, "b.json") == GP_ERR_USAGE &&
               strstr(gp_error(), "b.json: rank 0 again (a.json has it)"),
           "rank view: a rank twice is a usage error naming both files");
    tap_ok(fold(m, &none, "c.json") == GP_ERR_USAGE && strstr(gp_error(), "c.json: no rank"),
           "rank view: a report without a rank is a usage error naming it");
    gp_rank_merge_close(m, false);
    gp_report_free(&view);
}

static void test_missing(void)
{
    gp_rank_view v = {.world_size = 10};
    gp_rank_entry ranks[] = {{.rank = 0}, {.rank = 3}, {.rank = 4}, {.rank = 9}, {.rank = 12}};
    v.ranks = ranks;
    v.n_ranks = 5;
    char buf[64];
    tap_ok(gp_rank_view_missing(&v, buf, sizeof buf) == 6 && strcmp(buf, "1-2, 5-8") == 0,
           "missing ranks as ranges, a rank beyond the size left out");
    tap_ok(gp_rank_view_missing(&v, buf, 8) == 6 && strcmp(buf, "1-2...") != 0 &&
               strlen(buf) < 8, "missing ranks cut to the buffer");
    v.world_size = 0;
    tap_ok(gp_rank_view_missing(&v, buf, sizeof buf) == 0 && !buf[0],
           "no world size, nothing missing");
}

/* The view's JSON, printed a piece at a time, is what cJSON prints of it whole; read back,
 * it is written the same. */
static void test_view_json(void)
{
    gp_report view;
    if (merge_three(&view) != GP_OK)
        return;
    char *text = tap_render_report(&view, (gp_render_options){.format = GP_OUT_JSON});
    cJSON *doc = text ? cJSON_Parse(text) : NULL;
    char *whole = doc ? cJSON_Print(doc) : NULL;
    const size_t n = text ? strlen(text) : 0;
    tap_ok(whole && n && strncmp(text, whole, n - 1) == 0 && strlen(whole) == n - 1,
           "rank view JSON: printed in pieces as cJSON prints the document whole");
    gp_report back;
    const int rc = text ? gp_report_parse_json(text, n, "view", &back) : GP_ERR_RUNTIME;
    char *again = rc == GP_OK ? tap_render_report(&back, (gp_render_options){
                                                             .format = GP_OUT_JSON})
                              : NULL;
    tap_ok(again && strcmp(again, text) == 0, "rank view JSON: read back, written the same");
    free(again);
    gp_report_free(&back);
    cJSON_free(whole);
    cJSON_Delete(doc);
    free(text);
    gp_report_free(&view);
}

/* Two ranks of a JIT kernel of two codes: a view entry per code, numbered by calls over the
 * ranks (code 9 ran 3 times, code 7 twice), labelled in text and read back from JSON. */
static void test_view_variants(void)
{
    gp_report view;
    gp_rank_merge *m;
    gp_report_init(&view);
    if (gp_rank_merge_open(&view, &m) != GP_OK)
        return;
    gp_report r0 = rank_report(0, 2), r1 = rank_report(1, 2);
    add_launch(&r0, "jit", NULL, 1.0, -1, -1);
    add_launch(&r0, "jit", NULL, 1.0, -1, -1);
    add_launch(&r1, "jit", NULL, 2.0, -1, -1);
    add_launch(&r1, "jit", NULL, 2.0, -1, -1);
    add_launch(&r1, "jit", NULL, 2.0, -1, -1);
    r0.exec.launches[0].code = r0.exec.launches[1].code = 7;
    r1.exec.launches[0].code = 7;
    r1.exec.launches[1].code = r1.exec.launches[2].code = 9;
    int rc = fold(m, &r0, "r0.json");
    rc = rc ? rc : fold(m, &r1, "r1.json");
    const int closed = gp_rank_merge_close(m, rc == GP_OK);
    const gp_rank_view *v = view.ranks;
    const gp_rank_kernel *a = v && v->n_kernels == 2 ? &v->kernels[0] : NULL;
    const gp_rank_kernel *b = a ? &v->kernels[1] : NULL;
    const gp_rank_kernel *seven = a && a->code == 7 ? a : b, *nine = seven == a ? b : a;
    tap_ok(rc == GP_OK && closed == GP_OK && a && seven && nine && seven->code == 7 &&
               nine->code == 9 && seven->variant == 1 && nine->variant == 2 &&
               seven->variants == 2 && seven->n_cells == 2 && nine->n_cells == 1,
           "rank view: a kernel of two codes is an entry per code, variant 1 the one with the "
           "most calls over the ranks (code 7: 3 calls on 2 ranks)");
    char *text = tap_render_report(&view, (gp_render_options){.format = GP_OUT_TEXT});
    tap_ok(text && strstr(text, "jit [variant 1 of 2]") && strstr(text, "jit [variant 2 of 2]"),
           "rank view text: each entry labelled with its variant");
    char *json = tap_render_report(&view, (gp_render_options){.format = GP_OUT_JSON});
    gp_report back;
    const int read = json ? gp_report_parse_json(json, strlen(json), "view", &back)
                          : GP_ERR_RUNTIME;
    const gp_rank_view *bv = read == GP_OK ? back.ranks : NULL;
    tap_ok(bv && bv->n_kernels == 2 && bv->kernels[0].variants == 2 &&
               bv->kernels[0].code != bv->kernels[1].code,
           "rank view JSON: the entries' codes read back, their variants derived again");
    if (read == GP_OK)
        gp_report_free(&back);
    free(text);
    free(json);
    gp_report_free(&view);
}

/* The view's parts in each format (gpuprof/report_parts.h): an estimate marked where people
 * read it, a rank's value against the median, CSV's columns chosen by name, a flag a JSON
 * boolean read back as one. */
static void test_view_parts(void)
{
    gp_report view;
    if (merge_three(&view) != GP_OK)
        return;
    char *text = tap_render_report(&view, (gp_render_options){.format = GP_OUT_TEXT,
                                                              .by_rank = true});
    char *html = tap_render_report(&view, (gp_render_options){.format = GP_OUT_HTML,
                                                              .by_rank = true});
    char *csv = tap_render_report(&view, (gp_render_options){
                                             .format = GP_OUT_CSV, .by_rank = true,
                                             .csv_columns = "rank,total_ms,total_estimated"});
    tap_ok(text && strstr(text, "   1      3  ~4.50ms     +0.0%  ~750B    +89.9%  slowest") &&
               strstr(text, "   0      2   2.00ms    -55.6%    40B    -89.9%  fastest"),
           "rank view parts, text: rank 1's estimates marked, rank 0's against the median: %s",
           text ? text : "");
    tap_ok(html && strstr(html, "<td class=\"num\">~4.5000</td>") &&
               strstr(html, "<td class=\"num\">-55.6</td>"),
           "rank view parts, HTML: the same cells");
    tap_ok(csv && strstr(csv, "rank,total_ms,total_estimated\n0,5,0\n0,2,0\n1,4.5,1\n2,4.5,0\n"),
           "rank view parts, CSV: the columns --csv-columns names: %s", csv ? csv : "");
    char *json = tap_render_report(&view, (gp_render_options){.format = GP_OUT_JSON});
    char *flag = json ? strstr(json, "\"total_estimated\":\ttrue") : NULL;
    if (flag)
        memcpy(flag + strlen("\"total_estimated\":\t"), "1   ", 4);
    gp_report back;
    gp_clear_error();
    tap_ok(flag && gp_report_parse_json(json, strlen(json), "view", &back) != GP_OK &&
               strstr(gp_error(), "by_rank[1].total_estimated: expected true or false"),
           "rank view parts, JSON: a flag read back as a boolean only: %s", gp_error());
    gp_clear_error();
    if (flag)
        gp_report_free(&back);   /* what the reader got as far as reading */
    free(json);
    free(text);
    free(html);
    free(csv);
    gp_report_free(&view);
}

void test_ranks(void)
{
    test_view_variants();
    test_rank_sources();
    test_rank_malformed();
    test_view_numbers();
    test_view_refusals();
    test_missing();
    test_view_json();
    test_view_parts();
}
