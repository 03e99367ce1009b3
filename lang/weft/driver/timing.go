package driver

// AfterFrontEnd, when set, is called by `weft check` right after the front
// end (parse and check.Check: names, types, static bounds) and before the
// registered checkers (collective analysis, distributed memory, the code
// generator's checks, the sync check). bench/syncref/weftime sets it to
// time the part of a check that corresponds to the reference
// implementation's Procedure.sync_check, which runs on a procedure that
// Exo's @proc has already parsed, type checked and bounds checked
// (exo/API.py: Procedure.__init__ runs TypeChecker, CheckBounds and
// Check_Aliasing; sync_check runs run_backend_checks and
// sync_check.top_level_check). Nil in the weft command.
var AfterFrontEnd func()
