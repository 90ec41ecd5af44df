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

#endif
