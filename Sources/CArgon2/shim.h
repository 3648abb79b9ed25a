// libargon2 (Debian's libargon2-dev): argon2id password hashes for the users of `onair serve`.
#ifndef ONAIR_CARGON2_SHIM_H
#define ONAIR_CARGON2_SHIM_H
#include <argon2.h>
#endif
