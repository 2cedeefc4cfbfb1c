/* disk_cache.h: compiled programs kept on disk across processes.
 *
 * A directory of entries, one file per key (a hex fingerprint):
 *   <dir>/<key>.cxc   header (magic, format version, payload length, FNV-1a
 *                     checksum of the payload), then the payload.
 * Entries are written atomically (a unique temporary file renamed into
 * place), so concurrent processes see an entry whole or not at all; a
 * corrupted or truncated entry is detected by its header and checksum,
 * removed, and reported as DATA_LOSS, never handed out. Reading an entry
 * marks it used (its modification time); after a write, the least recently
 * used entries are removed until the directory's entries total at most
 * max_bytes.
 *
 * The directory: $CXLA_CACHE_DIR, else $XDG_CACHE_HOME/cxla, else
 * $HOME/.cache/cxla; none when $CXLA_CACHE is "0". Created (0700) on the
 * first write. */
#ifndef CXLA_RUNTIME_DISK_CACHE_H
#define CXLA_RUNTIME_DISK_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "cxla/status.h"

/* Default bound on the directory's total size: 1 GiB
 * ($CXLA_CACHE_MAX_MB overrides it in rt_disk_cache_max_bytes). */
#define RT_DISK_CACHE_MAX_BYTES ((int64_t)1 << 30)

/* The cache directory (cxla_malloc'd; the caller frees), or NULL when the
 * cache is off or no directory can be named. */
char *rt_disk_cache_dir(void);
int64_t rt_disk_cache_max_bytes(void);

/* The payload of entry `key` in a fresh cxla_malloc'd buffer. NOT_FOUND on
 * a miss; DATA_LOSS when the entry is damaged (it is removed). Keys are
 * 1..64 characters of [0-9a-zA-Z_-]. */
cxla_status rt_disk_cache_get(const char *dir, const char *key, void **out, size_t *out_len);
/* Stores the payload under key (replacing an entry there), then evicts. */
cxla_status rt_disk_cache_put(const char *dir, const char *key, const void *data, size_t len,
                              int64_t max_bytes);

#endif
