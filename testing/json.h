/* json.h: a small strict JSON parser (RFC 8259), enough for case.json.
 *
 * Strict: no comments, no trailing commas, no leading zeros, no control
 * characters inside strings, no duplicate keys in an object, nothing after
 * the top-level value but whitespace; nesting deeper than JSON_MAX_DEPTH is
 * refused. Errors are INVALID_ARGUMENT statuses "file:line:col: message"
 * (line and column 1-based, columns in bytes).
 *
 * Ownership: json_parse returns a JsonDoc owned by the caller, freed with
 * json_free. Every value, string and array inside it lives in the document's
 * arena and dies with it. The input text is not referenced afterwards. */
#ifndef CXLA_TESTING_JSON_H
#define CXLA_TESTING_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"

#define JSON_MAX_DEPTH 200

typedef enum JsonKind {
  JSON_NULL,
  JSON_BOOL,
  JSON_NUMBER,
  JSON_STRING,
  JSON_ARRAY,
  JSON_OBJECT
} JsonKind;

typedef struct JsonValue JsonValue;
struct JsonValue {
  JsonKind kind;
  int line, col;        /* where the value starts in the text */
  bool boolean;         /* JSON_BOOL */
  double number;        /* JSON_NUMBER */
  const char *str;      /* JSON_STRING: UTF-8, NUL-terminated */
  size_t len;           /* JSON_STRING: bytes (a "\u0000" escape may be inside) */
  int n;                /* JSON_ARRAY / JSON_OBJECT: number of items */
  JsonValue **items;    /* the array's items / the object's values, in order */
  const char **keys;    /* JSON_OBJECT: the keys, parallel to items */
};

typedef struct JsonDoc {
  Arena arena;
  JsonValue *root;
} JsonDoc;

/* Parses text[0..len). `filename` is for messages (NULL: "<json>"). */
cxla_status json_parse(const char *text, size_t len, const char *filename, JsonDoc **out);
void json_free(JsonDoc *doc);

/* The member `key` of an object, or NULL (also when obj is not an object). */
const JsonValue *json_get(const JsonValue *obj, const char *key);
/* A JSON kind's name for messages ("number", "object", ...). */
const char *json_kind_name(JsonKind k);
/* True if v is a number holding an integer of magnitude at most 2^53 (so
 * that the double represents it exactly); stores it in *out. */
bool json_as_i64(const JsonValue *v, int64_t *out);

#endif
