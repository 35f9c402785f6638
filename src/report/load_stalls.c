/* Reading back exec --stalls' samples (report/load_stalls.h): what the run sampled through
 * its part (gpuprof/report_parts.h), its reasons, each a name once, and every instruction by
 * hand, since its source, code, file and line may be absent; an instruction's samples are
 * sparse, keyed by the reasons' names. */
#include "report/load_stalls.h"

#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "report/load_parts.h"
#include "report/part_load.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int read_reason(gp_json_reader *rd, const cJSON *v, void *stalls)
{
    gp_exec_stalls *s = stalls;
    if (!cJSON_IsString(v) || !v->valuestring[0])
        return gp_json_fail(rd, "expected a reason's name");
    const size_t before = s->n_reasons;
    const int at = gp_exec_stall_reason(s, v->valuestring);
    if (at < 0)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    return (size_t)at == before ? GP_OK : gp_json_fail(rd, "'%s' twice", v->valuestring);
}

/* Its samples of each reason it names (a name among the reasons, a whole number); those it
 * does not name had none. */
static int read_samples(gp_json_reader *rd, const cJSON *o, void *stalls_pc)
{
    const gp_exec_stalls *s = ((void **)stalls_pc)[0];
    gp_exec_stall_pc *pc = ((void **)stalls_pc)[1];
    for (const cJSON *v = o->child; v; v = v->next) {
        size_t r = 0;
        while (r < s->n_reasons && strcmp(s->reasons[r], v->string) != 0)
            r++;
        const size_t at = gp_json_enter_key(rd, v->string);
        int rc = r < s->n_reasons ? gp_json_whole_number(rd, v, 0, UINT64_MAX, &pc->samples[r])
                                  : gp_json_fail(rd, "not one of the reasons");
        gp_json_leave(rd, at);
        GP_TRY(rc);
    }
    return GP_OK;
}

/* Where it is: its file and line, both or neither; the file copied, as the report owns it. */
static int read_place(gp_json_reader *rd, const cJSON *o, gp_exec_stall_pc *pc)
{
    const char *file;
    GP_TRY(gp_json_get_file_line(rd, o, &file, &pc->line));
    if (file && !(pc->file = strdup(file)))
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    return GP_OK;
}

static int read_pc(gp_json_reader *rd, const cJSON *o, void *report)
{
    gp_report *r = report;
    gp_exec_stalls *s = &r->exec.stalls;
    gp_exec_stall_pc *pc;
    uint64_t offset, sum = 0;
    if (gp_exec_add_stall_pc(s, &pc) != 0)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    GP_TRY(gp_report_read_input(rd, o, r, &pc->input));
    GP_TRY(gp_json_get_int(rd, o, "pid", 0, &pc->pid));
    GP_TRY(gp_json_get_string_copy(rd, o, "kernel", &pc->kernel, false));
    GP_TRY(gp_json_expect(rd, "kernel", pc->kernel[0], "a kernel's name, not \"\""));
    GP_TRY(gp_json_get_code(rd, o, "code", true, &pc->code));
    GP_TRY(gp_json_get_integer(rd, o, "pc", 0, UINT32_MAX, &offset));
    pc->pc = (uint32_t)offset;
    GP_TRY(read_place(rd, o, pc));
    GP_TRY(gp_json_read_object(rd, o, "samples", false, read_samples, (void *[]){s, pc}));
    GP_TRY(gp_json_get_integer(rd, o, "not_issued", 0, UINT64_MAX, &pc->not_issued));
    for (size_t i = 0; i < s->n_reasons; i++)
        sum += pc->samples[i];
    return gp_json_expect(rd, "not_issued", pc->not_issued <= sum, "at most its samples");
}

static int read_stalls(gp_json_reader *rd, const cJSON *o, void *report)
{
    gp_report *r = report;
    gp_exec_stalls *s = &r->exec.stalls;
    s->sampled = true;
    r->exec.request.stalls = true;
    GP_TRY(gp_part_load_row(rd, o, &gp_stall_run_part, s));
    GP_TRY(gp_json_read_each(rd, o, "reasons", read_reason, s));
    return gp_json_read_objects(rd, o, gp_stall_pc_part.key, read_pc, r);
}

int gp_report_read_exec_stalls(gp_json_reader *rd, const cJSON *o, gp_report *r)
{
    if (!gp_json_field(o, gp_stall_run_part.key))
        return GP_OK;
    return gp_json_read_object(rd, o, gp_stall_run_part.key, false, read_stalls, r);
}
