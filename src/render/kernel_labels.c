/* Kernel numbers and styled names of an exec report (render/kernel_labels.h). */
#include "render/kernel_labels.h"

#include "gpuprof/status.h"

#include <stdlib.h>

int gp_kernel_labels_init(gp_kernel_labels *kl, const gp_exec_kernel *k, size_t nk,
                          gp_kernel_name_style style)
{
    *kl = (gp_kernel_labels){.n = nk};
    gp_hashmap_init(&kl->numbers, sizeof(size_t));
    const char **fulls = malloc((nk ? nk : 1) * sizeof *fulls);
    kl->names = malloc((nk ? nk : 1) * GP_LABEL_LEN);
    int rc = fulls && kl->names ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; rc == GP_OK && i < nk; i++) {
        fulls[i] = k[i].kernel;
        size_t *number = gp_hashmap_add_str(&kl->numbers, k[i].kernel, &(bool){false});
        if (!number)
            rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
        else
            *number = i + 1;
    }
    if (rc == GP_OK)
        rc = gp_kernel_names_format(fulls, nk, style, kl->names, GP_LABEL_LEN);
    /* Control characters would move the terminal's cursor: shown as '?'. */
    for (size_t i = 0; rc == GP_OK && i < nk; i++)
        for (char *c = kl->names + i * GP_LABEL_LEN; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = '?';
    free(fulls);
    if (rc != GP_OK)
        gp_kernel_labels_free(kl);
    return rc;
}

void gp_kernel_labels_free(gp_kernel_labels *kl)
{
    gp_hashmap_free(&kl->numbers);
    free(kl->names);
    kl->names = NULL;
    kl->n = 0;
}

size_t gp_kernel_labels_number(const gp_kernel_labels *kl, const char *kernel)
{
    const size_t *number = gp_hashmap_find_str(&kl->numbers, kernel);
    return number ? *number : 0;
}

const char *gp_kernel_labels_name(const gp_kernel_labels *kl, const char *kernel)
{
    const size_t number = gp_kernel_labels_number(kl, kernel);
    return number ? kl->names + (number - 1) * GP_LABEL_LEN : kernel;
}
