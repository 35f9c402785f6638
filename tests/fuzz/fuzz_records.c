/* libFuzzer harness: gpuprof exec's records (gpuprof/protocol.h) from arbitrary bytes, read by
 * gp_records_read_texts into a report set up as `gpuprof exec` sets it up, and when they read,
 * the report rendered as text (with and without --metrics-detail, and per launch, and with
 * --sass), CSV (and --source's), JSON and HTML to /dev/null. The input is split at NUL bytes
 * into at most MAX_FILES record files (1.jsonl, 2.jsonl, ...: several processes), each its
 * own heap block of its exact size, so a read past a file's end is caught. Nothing is printed
 * and nothing exits. */
#include "records/records.h"
#include "gpuprof/exec_modes.h"
#include "gpuprof/render.h"
#include "gpuprof/report.h"
#include "gpuprof/status.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 4

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    sink = fopen("/dev/null", "w");
    return 0;
}

/* What gpuprof exec knows before it reads the records (cmd_exec.c's describe_request). */
static void set_up(gp_report *r)
{
    static char gpuprof[] = "gpuprof", exec[] = "exec", program[] = "./app";
    char *command_line[] = {gpuprof, exec, program}, *argv[] = {program};
    gp_report_init(r);
    r->is_exec = true;
    snprintf(r->command, sizeof r->command, "exec");
    snprintf(r->profiler.metric_set, sizeof r->profiler.metric_set, "default");
    r->exec.request = gp_exec_request_default();
    gp_report_set_command_line(r, 3, command_line);
    gp_exec_set_program(&r->exec, 1, argv);
}

static void render(gp_report *r)
{
    if (r->exec.n_devices) {
        r->has_device = true;
        r->device = r->exec.devices[0];
    }
    gp_render_report(sink, r, (gp_render_options){.format = GP_OUT_TEXT});
    gp_render_report(sink, r, (gp_render_options){.format = GP_OUT_CSV});
    gp_render_report(sink, r, (gp_render_options){.format = GP_OUT_TEXT, .metrics_detail = true});
    /* one row per launch */
    gp_render_report(sink, r, (gp_render_options){.format = GP_OUT_TEXT, .launches = true});
    gp_render_report(sink, r, (gp_render_options){.format = GP_OUT_CSV, .no_header = true});
    gp_render_report(sink, r, (gp_render_options){.format = GP_OUT_JSON});
    gp_render_report(sink, r, (gp_render_options){.format = GP_OUT_HTML});
    /* --source: the per-line views, with their instructions, and as CSV rows */
    gp_render_report(sink, r, (gp_render_options){.format = GP_OUT_TEXT, .sass = true});
    gp_render_report(sink, r, (gp_render_options){.format = GP_OUT_CSV, .source_rows = true});
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_records_text files[MAX_FILES];
    char names[MAX_FILES][16];
    size_t n = 0, start = 0;
    for (size_t i = 0; i <= size && n < MAX_FILES; i++) {
        if (i < size && (data[i] != '\0' || n == MAX_FILES - 1))
            continue;
        const size_t len = i - start;
        char *text = malloc(len ? len : 1);
        if (!text)
            break;
        memcpy(text, data + start, len);
        snprintf(names[n], sizeof names[n], "%zu.jsonl", n + 1);
        files[n] = (gp_records_text){names[n], text, len};
        n++;
        start = i + 1;
    }
    gp_report r;
    set_up(&r);
    if (gp_records_read_texts(files, n, &r) == GP_OK && sink)
        render(&r);
    gp_report_free(&r);
    gp_clear_error();
    for (size_t i = 0; i < n; i++)
        free((void *)files[i].text);
    return 0;
}
