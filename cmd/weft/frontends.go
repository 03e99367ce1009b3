package main

// Each language registers its front end from its driver package.
import (
	_ "weft.dev/weft/lang/audala/driver"
	_ "weft.dev/weft/lang/cudac/driver"
	_ "weft.dev/weft/lang/prism/driver"
	_ "weft.dev/weft/lang/weft/driver"
)
