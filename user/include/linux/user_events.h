/*
 * linux/user_events.h - so that programs written for Linux (#include <linux/user_events.h>)
 * find DIAG_IOCSREG, struct user_reg and friends: they live in uapi/user_events.h.
 */
#ifndef _LINUX_USER_EVENTS_H
#define _LINUX_USER_EVENTS_H

#include "uapi/user_events.h"

#endif
