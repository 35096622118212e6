module mlsvc/bench/loadgen

go 1.22
