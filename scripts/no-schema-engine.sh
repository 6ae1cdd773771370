#!/bin/sh
echo "toolwatch: the native Prisma schema engine is not used; run npm run migrate" >&2
exit 1
