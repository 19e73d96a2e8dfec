/*
 * calendar.h - the one proleptic Gregorian calendar (UTC) of the scenario
 * generator (scengen.c) and the peers' date helpers (bench/bench_util.c).
 * Days count from 1970-01-01 (day 0); months are 1-12, days 1-31.
 */
#ifndef TYJSON_SCEN_CALENDAR_H
#define TYJSON_SCEN_CALENDAR_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Days since 1970-01-01 of year y, month m, day d. */
int64_t scen_days_from_civil(int64_t y, unsigned m, unsigned d);
/* The date of day z since 1970-01-01. */
void scen_civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d);

#ifdef __cplusplus
}
#endif
#endif /* TYJSON_SCEN_CALENDAR_H */
