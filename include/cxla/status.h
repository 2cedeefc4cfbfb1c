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

/* Exported from libcxla.so (built with -fvisibility=hidden); everything
 * not marked CXLA_API stays inside the library. */
#if defined(__GNUC__)
#define CXLA_API __attribute__((visibility("default")))
#else
#define CXLA_API
#endif

/* The codes and their numbers are PJRT's (PJRT_Error_Code, absl's
 * StatusCode), so a PJRT plugin passes them through unchanged. CXLA_IO is
 * cxla's own (a plugin reports it as UNKNOWN). */
typedef enum cxla_status_code {
  CXLA_OK = 0,
  CXLA_CANCELLED = 1,           /* the caller cancelled the work */
  CXLA_UNKNOWN = 2,             /* an error with no better code */
  CXLA_INVALID_ARGUMENT = 3,    /* bad input: malformed text, shape mismatch, ... */
  CXLA_DEADLINE_EXCEEDED = 4,   /* a timeout ran out before the work ended */
  CXLA_NOT_FOUND = 5,           /* a file, name, backend or computation that is not there */
  CXLA_ALREADY_EXISTS = 6,
  CXLA_PERMISSION_DENIED = 7,   /* e.g. a path that leaves its directory */
  CXLA_RESOURCE_EXHAUSTED = 8,  /* out of memory, or a size past cxla's limits */
  CXLA_FAILED_PRECONDITION = 9, /* e.g. running a module with elided constants */
  CXLA_ABORTED = 10,
  CXLA_OUT_OF_RANGE = 11,       /* an index past the end */
  CXLA_UNIMPLEMENTED = 12,      /* a valid program that cxla cannot run (yet) */
  CXLA_INTERNAL = 13,           /* a bug in cxla */
  CXLA_UNAVAILABLE = 14,        /* a resource (device, backend) not available now */
  CXLA_DATA_LOSS = 15,          /* corrupted data, e.g. a damaged cache entry */
  CXLA_UNAUTHENTICATED = 16,
  CXLA_IO = 17,                 /* reading or writing a file failed */
} cxla_status_code;

typedef struct cxla_status_s *cxla_status;

/* The code of a status; CXLA_OK for NULL. */
CXLA_API cxla_status_code cxla_status_code_of(cxla_status s);
/* The message of a status ("" for NULL). Owned by the status. */
CXLA_API const char *cxla_status_message(cxla_status s);
/* The text name of a code, e.g. "INVALID_ARGUMENT". Static storage. */
CXLA_API const char *cxla_status_code_name(cxla_status_code c);
/* Frees a status; NULL is fine. */
CXLA_API void cxla_status_free(cxla_status s);

/* Makes a status with a printf-style message. The caller owns the result.
 * If memory runs out, returns a static "out of memory" status that
 * cxla_status_free ignores. Never returns NULL for code != CXLA_OK. */
CXLA_API cxla_status cxla_status_make(cxla_status_code code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Prepends "context: " to the message of s and returns s (NULL stays NULL). */
CXLA_API cxla_status cxla_status_annotate(cxla_status s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#ifdef __cplusplus
}
#endif
#endif
