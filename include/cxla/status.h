/* cxla/status.h: errors are values.
 *
 * Every fallible cxla function returns a cxla_status. NULL means success;
 * anything else is a heap object carrying a code and a message, owned by the
 * caller, who must release it with cxla_status_free(). Library code never
 * prints, aborts or exits. */
#ifndef CXLA_STATUS_H
#define CXLA_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cxla_status_code {
  CXLA_OK = 0,
  CXLA_INVALID_ARGUMENT,  /* bad input: malformed text, shape mismatch, ... */
  CXLA_NOT_FOUND,         /* a file, name or computation that is not there */
  CXLA_UNIMPLEMENTED,     /* a valid program that cxla cannot run (yet) */
  CXLA_RESOURCE_EXHAUSTED,/* out of memory, or a size past cxla's limits */
  CXLA_INTERNAL,          /* a bug in cxla */
  CXLA_IO,                /* reading or writing a file failed */
  CXLA_FAILED_PRECONDITION/* e.g. running a module with elided constants */
} cxla_status_code;

typedef struct cxla_status_s *cxla_status;

/* The code of a status; CXLA_OK for NULL. */
cxla_status_code cxla_status_code_of(cxla_status s);
/* The message of a status ("" for NULL). Owned by the status. */
const char *cxla_status_message(cxla_status s);
/* The text name of a code, e.g. "INVALID_ARGUMENT". Static storage. */
const char *cxla_status_code_name(cxla_status_code c);
/* Frees a status; NULL is fine. */
void cxla_status_free(cxla_status s);

/* Makes a status with a printf-style message. The caller owns the result.
 * If memory runs out, returns a static "out of memory" status that
 * cxla_status_free ignores. Never returns NULL for code != CXLA_OK. */
cxla_status cxla_status_make(cxla_status_code code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Prepends "context: " to the message of s and returns s (NULL stays NULL). */
cxla_status cxla_status_annotate(cxla_status s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#ifdef __cplusplus
}
#endif
#endif
