package syntax

// cudaLimit (driver_types.h) is a typedef name of the device-management
// API that lang/cudac/sem/lib_deviceprop.go models.
func init() { BuiltinTypeNames = append(BuiltinTypeNames, "cudaLimit") }
