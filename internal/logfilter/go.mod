module early.weft.dev/logfilter

go 1.26.8
