package bundl

import "strconv"

func itoa(n int) string { return strconv.Itoa(n) }

func parseInt(s string) (int64, error) { return strconv.ParseInt(s, 0, 64) }

func parseFloat(s string) (float64, error) { return strconv.ParseFloat(s, 64) }
