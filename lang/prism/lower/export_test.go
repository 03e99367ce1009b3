package lower

// HarnessRuntime exposes the harness's host helpers to the tests.
const HarnessRuntime = harnessRuntime
