/* A compared row's labels (gpuprof/compare.h), computed once for every view: its keys joined
 * for people ("reduce neighbored int32 n=16777216 block=512"), the text's and the page's
 * table's; on the page's chart, the keys every matched row shares said once in its caption
 * and left out of the bars' labels, so that each keeps what differs, an exec kernel by its
 * label. */
#include "gpuprof/compare.h"

#include <stdio.h>
#include <string.h>

/* How a label is made: whether a library call's uncaptured shape is left out ("block=-"),
 * an exec row's kernel by its label, and the keys left to a caption (NULL: none). */
typedef struct {
    bool known_shapes;
    bool labelled;
    const gp_compare_common *common;
} label_style;

static bool same_key(const gp_compare_key *a, const gp_compare_key *b)
{
    return strcmp(a->name, b->name) == 0 && strcmp(a->value, b->value) == 0;
}

static bool row_has_key(const gp_compare_row *row, const gp_compare_key *key)
{
    for (size_t k = 0; k < row->n_keys; k++)
        if (same_key(&row->keys[k], key))
            return true;
    return false;
}

static bool matched(const gp_compare_row *row)
{
    return row->base.present && row->next.present;
}

void gp_compare_common_keys(const gp_comparison *c, gp_compare_common *ck)
{
    ck->n = 0;
    const gp_compare_row *first = NULL;
    for (size_t i = 0; i < c->n_rows && !first; i++)
        first = matched(&c->rows[i]) ? &c->rows[i] : NULL;
    for (size_t k = 0; first && k < first->n_keys; k++) {
        bool everywhere = true;
        for (size_t i = 0; i < c->n_rows && everywhere; i++)
            everywhere = !matched(&c->rows[i]) || row_has_key(&c->rows[i], &first->keys[k]);
        if (everywhere)
            ck->keys[ck->n++] = &first->keys[k];
    }
}

static bool is_common(const gp_compare_common *ck, const gp_compare_key *key)
{
    for (size_t i = 0; ck && i < ck->n; i++)
        if (same_key(ck->keys[i], key))
            return true;
    return false;
}

/* A block or grid of "-" (0x0x0 in compares of older gpuprof): a library call's own,
 * not captured. */
static bool unknown_shape(const gp_compare_key *k)
{
    return (strcmp(k->name, "block") == 0 || strcmp(k->name, "grid") == 0) &&
           (strcmp(k->value, "-") == 0 || strcmp(k->value, "0x0x0") == 0);
}

/* A key after the label's words (`used` bytes of buf): "reduce", "int32", "size=16777216";
 * a kernel by its label (`label`, not NULL). */
static size_t append_key(char *buf, size_t len, size_t used, const gp_compare_key *k,
                         const char *label)
{
    if (used >= len)
        return used;
    const bool bare = strcmp(k->name, "family") == 0 || strcmp(k->name, "variant") == 0 ||
                      strcmp(k->name, "type") == 0 || strcmp(k->name, "kernel") == 0;
    const char *value = label && strcmp(k->name, "kernel") == 0 ? label : k->value;
    return used + (size_t)snprintf(buf + used, len - used, "%s%s%s%s", used ? " " : "",
                                   bare ? "" : k->name, bare ? "" : "=", value);
}

/* A row's words in a style: its keys but those the style leaves out (all of them, when it
 * would leave out every one). */
static void row_words(const gp_compare_row *row, const label_style *s, char *buf, size_t len)
{
    const char *label = s->labelled && row->label[0] ? row->label : NULL;
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < row->n_keys; i++)
        if (!is_common(s->common, &row->keys[i]) &&
            !(s->known_shapes && unknown_shape(&row->keys[i])))
            used = append_key(buf, len, used, &row->keys[i], label);
    if (s->common && !buf[0])
        row_words(row, &(label_style){s->known_shapes, s->labelled, NULL}, buf, len);
}

/* An exec row's kernel number before its words: "#2 ", "new#3 " (as the text's). */
static void number_label(const gp_compare_row *row, char *buf, size_t len)
{
    char words[GP_COMPARE_LABEL_LEN];
    if (!row->number)
        return;
    snprintf(words, sizeof words, "%s", buf);
    snprintf(buf, len, "%s#%zu %.*s", row->number_is_new ? "new" : "", row->number,
             (int)(len > 16 ? len - 16 : 0), words);
}

void gp_compare_label(const gp_compare_row *row, char *buf, size_t len)
{
    row_words(row, &(label_style){0}, buf, len);
}

void gp_compare_full_label(const gp_compare_row *row, char *buf, size_t len)
{
    row_words(row, &(label_style){.known_shapes = true}, buf, len);
    number_label(row, buf, len);
}

void gp_compare_chart_label(const gp_compare_common *ck, const gp_compare_row *row, char *buf,
                            size_t len)
{
    row_words(row, &(label_style){.known_shapes = true, .labelled = true, .common = ck}, buf,
              len);
    number_label(row, buf, len);
}

void gp_compare_common_label(const gp_compare_common *ck, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < ck->n; i++)
        if (!unknown_shape(ck->keys[i]))
            used = append_key(buf, len, used, ck->keys[i], NULL);
}
