/* slow_build.h - SLOW_BUILD is defined in sanitizer builds, which run several times
 * slower, so that a test can check the same things on a smaller sample there. */
#ifndef CROWN_TEST_SLOW_BUILD_H
#define CROWN_TEST_SLOW_BUILD_H

#if defined(__SANITIZE_ADDRESS__)
#define SLOW_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SLOW_BUILD 1
#endif
#endif

/* SLOW_BUILD_SHARE(n): how many of a test's n sampled games or positions a build runs. The
 * release build runs them all and checks every count; a sanitizer build, looking for
 * memory errors and undefined behaviour in the same code paths, runs a quarter of them
 * (at least one), so that it costs about what the release run does. A bound on what the
 * sample must have met is scaled the same way. */
#ifdef SLOW_BUILD
#define SLOW_BUILD_SHARE(n) (((n) + 3) / 4)
#else
#define SLOW_BUILD_SHARE(n) (n)
#endif

#endif
