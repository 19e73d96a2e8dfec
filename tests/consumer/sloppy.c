/* sloppy.c - code of the parent project that warns under -Wall -Wextra
 * (unused parameter and variable, sign comparison). It must still build:
 * tyjson's -Werror must not reach the parent's targets. */
int sloppy(int unused, unsigned n);

int sloppy(int unused, unsigned n) {
    int never_read = 0;
    int i = -1;
    return i < n;
}
