// SDL2 (Debian's libsdl2-dev), the window and audio output of `onair play`.
#ifndef ONAIR_CSDL2_SHIM_H
#define ONAIR_CSDL2_SHIM_H
#include <SDL2/SDL.h>
#endif
