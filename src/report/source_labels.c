/* The exec views of gpuprof/source_labels.h, labelled and ordered. */
#include "gpuprof/source_labels.h"

#include "gpuprof/exec_source.h"
#include "gpuprof/status.h"

#include <stdio.h>
#include <stdlib.h>

void gp_source_labels_free(gp_source_label *l, size_t n)
{
    for (size_t i = 0; l && i < n; i++)
        free(l[i].kernel);
    free(l);
}

/* By number (those without one last), then as the report holds them. */
static int by_number(const void *a, const void *b)
{
    const gp_source_label *x = a, *y = b;
    const size_t nx = x->number ? x->number : SIZE_MAX, ny = y->number ? y->number : SIZE_MAX;
    if (nx != ny)
        return nx < ny ? -1 : 1;
    return (x->view > y->view) - (x->view < y->view);
}

int gp_source_labels(const gp_exec_info *e, const gp_kernel_labels *kl, gp_source_label **out,
                     size_t *n)
{
    *n = 0;
    *out = calloc(e->n_source_views ? e->n_source_views : 1, sizeof **out);
    if (!*out)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (; *n < e->n_source_views; (*n)++) {
        gp_source_label *l = &(*out)[*n];
        l->view = &e->source_views[*n];
        l->kernel = gp_exec_source_kernel(e, l->view);
        if (!l->kernel) {
            gp_source_labels_free(*out, *n);
            *out = NULL;
            *n = 0;
            return gp_fail(GP_ERR_RUNTIME, "out of host memory");
        }
        l->variant = gp_exec_source_variant(e, l->view);
        l->number = gp_kernel_labels_number(kl, l->kernel, l->variant);
        l->ordinal = gp_exec_source_ordinal(e, l->view);
    }
    qsort(*out, *n, sizeof **out, by_number);
    return GP_OK;
}

void gp_source_tag(const gp_kernel_labels *kl, size_t number, const gp_exec_source_view *v,
                   char *buf, size_t len)
{
    size_t used = number ? (size_t)snprintf(buf, len, "#%zu ", number) : 0;
    if (used >= len || !kl->sources) {
        if (!number)
            buf[0] = '\0';
        return;
    }
    if (v && v->input != GP_INPUT_UNKNOWN)
        snprintf(buf + used, len - used, "[%zu] ", v->input + 1);
    else if (gp_kernel_labels_from_number(kl, number)[0])
        snprintf(buf + used, len - used, "%s ", gp_kernel_labels_from_number(kl, number));
    else
        buf[used] = '\0';
}

void gp_source_label_launch(const gp_source_label *l, char *buf, size_t len)
{
    const gp_exec_source_view *v = l->view;
    if (v->launch == GP_NO_LAUNCH)
        snprintf(buf, len, "process %d, no patched launch", v->pid);
    else if (v->launch == GP_OWN_RUN)
        snprintf(buf, len, "gpuprof's own run, process %d", v->pid);
    else if (l->ordinal)
        snprintf(buf, len, "process %d, launch %llu of the kernel, id %llu", v->pid,
                 (unsigned long long)l->ordinal, (unsigned long long)v->launch);
    else
        snprintf(buf, len, "process %d, launch id %llu", v->pid, (unsigned long long)v->launch);
}

/* A view without a launch: its note. */
static int say_note(const gp_source_label *l, gp_source_without_fn fn, void *ctx)
{
    if (l->view->launch != GP_NO_LAUNCH)
        return GP_OK;
    return fn(ctx, l->number, l->kernel, l->view,
              l->view->note ? l->view->note : "the library said nothing");
}

int gp_source_without_lines(const gp_source_label *l, size_t n, const gp_exec_kernel *k,
                            size_t nk, gp_source_without_fn fn, void *ctx)
{
    size_t at = 0;
    for (size_t i = 0; i < nk; i++) {
        const size_t from = at;
        for (; at < n && l[at].number == i + 1; at++)
            GP_TRY(say_note(&l[at], fn, ctx));
        if (at == from && k[i].profiled)
            GP_TRY(fn(ctx, i + 1, k[i].kernel, NULL,
                      k[i].profiled >= k[i].calls ? GP_NO_PATCHED_LAUNCH
                                                  : GP_NO_LAUNCH_AFTER_COUNTERS));
    }
    for (; at < n; at++)
        GP_TRY(say_note(&l[at], fn, ctx));
    return GP_OK;
}

int gp_source_views_open(gp_source_views *v, const gp_report *r)
{
    *v = (gp_source_views){0};
    GP_TRY(gp_exec_summarize(&r->exec, &v->k, &v->nk));
    GP_TRY(gp_kernel_labels_init(&v->kl, v->k, v->nk, GP_KERNEL_NAME_SHORT));
    GP_TRY(gp_kernel_labels_sources(&v->kl, r));
    return gp_source_labels(&r->exec, &v->kl, &v->l, &v->n);
}

void gp_source_views_close(gp_source_views *v)
{
    gp_source_labels_free(v->l, v->n);
    gp_kernel_labels_free(&v->kl);
    gp_exec_summary_free(v->k, v->nk);
    *v = (gp_source_views){0};
}
