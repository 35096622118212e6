// Load generator for bench/predict, in Go so that the load process costs the 2 cores as
// little as possible (a Node client spends about as much CPU per request as the server).
//
// Closed loop: CONCURRENCY requests in flight for SECONDS. Open loop: requests started at a
// fixed RPS whatever the answers do; latency is measured from each request's scheduled start,
// so queueing at the server (or in this client) is counted, not hidden.
// Prints one JSON line: {mode, level, requests, errors, rps, p50_ms, p90_ms, p99_ms, p999_ms, max_ms,
// sent, sent_errors}: `requests` and `errors` are the measured ones, `sent` and `sent_errors` count
// every request sent, warm-up included (what a server that logs each request should have logged).
//
//	loadgen URL BODY_JSON HEADERS_JSON closed CONCURRENCY SECONDS
//	loadgen URL BODY_JSON HEADERS_JSON open RPS SECONDS
//
// LOADGEN_METHOD=GET sends GETs without a body (default POST). Any 2xx answer is a success.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"sync"
	"time"
)

// The first second is not measured: the client opens its connections then, as any
// long-lived client (a web app, a batch job) has done before the traffic that matters.
const warmup = time.Second

func main() {
	if len(os.Args) != 7 {
		fmt.Fprintln(os.Stderr, "usage: loadgen URL BODY_JSON HEADERS_JSON closed|open LEVEL SECONDS")
		os.Exit(2)
	}
	url, body, mode := os.Args[1], []byte(os.Args[2]), os.Args[4]
	var headers map[string]string
	if err := json.Unmarshal([]byte(os.Args[3]), &headers); err != nil {
		panic(err)
	}
	level, _ := strconv.Atoi(os.Args[5])
	seconds, _ := strconv.ParseFloat(os.Args[6], 64)
	conns := level
	if mode == "open" {
		conns = 256
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns, DisableCompression: true}, Timeout: 30 * time.Second}

	slowLog := os.Getenv("LOADGEN_SLOW_LOG") != ""
	method := os.Getenv("LOADGEN_METHOD")
	if method == "" {
		method = "POST"
	}
	started := time.Now()
	measureFrom := started
	var mu sync.Mutex
	latencies := make([]float64, 0, 1<<16)
	errors := 0
	sent, sentErrors := 0, 0
	once := func(scheduled time.Time) {
		var reader io.Reader
		if method != "GET" {
			reader = bytes.NewReader(body)
		}
		req, _ := http.NewRequest(method, url, reader)
		if reader != nil {
			req.Header.Set("content-type", "application/json")
		}
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		res, err := client.Do(req)
		ok := err == nil
		if ok {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			ok = res.StatusCode >= 200 && res.StatusCode < 300
		}
		ms := float64(time.Since(scheduled).Microseconds()) / 1000
		if slowLog && ms > 10 {
			fmt.Fprintf(os.Stderr, "slow %.1f ms at +%.3f s (%s)\n", ms, scheduled.Sub(started).Seconds(), scheduled.Format("15:04:05.000"))
		}
		mu.Lock()
		defer mu.Unlock()
		sent++
		if !ok {
			sentErrors++
		}
		if scheduled.Before(measureFrom) {
			return // warm-up: connections being opened, not measured
		}
		latencies = append(latencies, ms)
		if !ok {
			errors++
		}
	}

	started = time.Now()
	measureFrom = started.Add(warmup)
	end := measureFrom.Add(time.Duration(seconds * float64(time.Second)))
	var wg sync.WaitGroup
	if mode == "closed" {
		for i := 0; i < level; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for time.Now().Before(end) {
					once(time.Now())
				}
			}()
		}
	} else {
		interval := time.Duration(float64(time.Second) / float64(level))
		for next := started; next.Before(end); next = next.Add(interval) {
			if d := time.Until(next); d > 0 {
				time.Sleep(d)
			}
			wg.Add(1)
			go func(at time.Time) {
				defer wg.Done()
				once(at)
			}(next)
		}
	}
	wg.Wait()
	elapsed := time.Since(measureFrom).Seconds()
	sort.Float64s(latencies)
	q := func(p float64) float64 {
		if len(latencies) == 0 {
			return 0
		}
		i := int(p * float64(len(latencies)))
		if i >= len(latencies) {
			i = len(latencies) - 1
		}
		return latencies[i]
	}
	out, _ := json.Marshal(map[string]any{"mode": mode, "level": level, "requests": len(latencies), "errors": errors, "rps": float64(len(latencies)) / elapsed, "p50_ms": q(0.5), "p90_ms": q(0.9), "p99_ms": q(0.99), "p999_ms": q(0.999), "max_ms": q(1), "sent": sent, "sent_errors": sentErrors})
	fmt.Println(string(out))
}
