// libyaml (Debian's libyaml-dev), the reader of `onair serve --config FILE`.
#ifndef ONAIR_CYAML_SHIM_H
#define ONAIR_CYAML_SHIM_H
#include <yaml.h>
#endif
