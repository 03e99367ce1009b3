package amir

// DimApartTest turns thsymEnterAt's and thsymMeetsClasses' span skip
// (thVar.dimApart) off or on for every machine run after it and returns
// the counter of skips, reset. For TestDimApartRepo.
func DimApartTest(off bool) *int64 {
	thsymNoDimApart = off
	thsymDimSkips = 0
	return &thsymDimSkips
}
