/* Reading a whole file into memory, with a size cap. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/base.h"

cxla_status cxla_read_file(const char *path, int64_t max_bytes, char **out, size_t *len) {
  *out = NULL;
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f)
    return cxla_status_make(errno == ENOENT ? CXLA_NOT_FOUND : CXLA_IO, "%s: %s",
                            path, strerror(errno));
  struct stat sb;
  if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
    fclose(f);
    return ERR(IO, "'%s' is not a regular file", path);
  }
  if ((int64_t)sb.st_size > max_bytes) {
    fclose(f);
    return ERR(RESOURCE_EXHAUSTED, "'%s' is larger than %lld bytes", path, (long long)max_bytes);
  }
  size_t n = (size_t)sb.st_size;
  char *buf = cxla_malloc(n + 1);
  if (!buf) {
    fclose(f);
    return cxla_oom();
  }
  size_t got = fread(buf, 1, n, f);
  int err = ferror(f);
  fclose(f);
  if (err || got != n) {
    cxla_free(buf);
    return ERR(IO, "error reading '%s'", path);
  }
  buf[n] = 0;
  *out = buf;
  *len = n;
  return NULL;
}
