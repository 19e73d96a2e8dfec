/*
 * tyjson.h - umbrella header: include this one.
 *
 *   tyjson/common.h  status codes, error record, allocator, flags
 *   tyjson/dom.h     immutable document: parse, query, iterate, pointer
 *   tyjson/mut.h     mutable document: build, edit, copy
 *   tyjson/write.h   documents and values to text
 *   tyjson/bind.h    typed binding: JSON <-> C structs without a DOM
 *   tyjson/reader.h  pull reader over chunked input, records from a stream
 *   tyjson/writer.h  streaming writer: JSON text built call by call
 */
#ifndef TYJSON_H
#define TYJSON_H

#include "tyjson/common.h"
#include "tyjson/dom.h"
#include "tyjson/mut.h"
#include "tyjson/write.h"
#include "tyjson/bind.h"
#include "tyjson/reader.h"
#include "tyjson/writer.h"

#endif /* TYJSON_H */
