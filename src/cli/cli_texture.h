/*
 * cli_texture.h — the texture resources of a case file (lockstep's
 * "texture" extension, docs/case-format.md) for `lockstep run`
 * (cli_texture.c), called from the case runner (runner.c).
 */
#ifndef LS_CLI_TEXTURE_H
#define LS_CLI_TEXTURE_H

#include "lockstep.h"
#include "case.h"

/* Creates the texture of buffer entry b with its initial texels (level 0,
 * every layer) and the view a bind group takes. Returns 0 after a
 * validation error (the device's error callback has its message). */
int cli_texture_create(ls_device *dev, const case_buffer *b, ls_texture **tex,
                       ls_texture_view **view);
/* The texels of level 0, every layer, tightly packed rows, into words
 * (b->words of them), read as copyTextureToBuffer (256-byte rows) and a
 * map would. Returns 0 after an error. */
int cli_texture_read(ls_device *dev, const case_buffer *b, ls_texture *tex, uint32_t *words);
/* The layout entry of a texture binding. */
void cli_texture_layout_entry(const case_buffer *b, ls_bind_group_layout_entry *le);

#endif
