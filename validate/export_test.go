package validate

// AudalaCompare exposes the AuDaLa --dump comparison to the tests.
var AudalaCompare = audalaCompare
