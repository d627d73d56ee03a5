package serve

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestTrickledBodies: clients that send their bodies a byte at a time
// lose their admission slots at the body bound (here 500 ms), so that an
// honest client is served right after, and nothing stays admitted. Before,
// six such clients held the slots past the documented bound and others got
// 503.
func TestTrickledBodies(t *testing.T) {
	s, _ := newFakeServer(t, Options{Token: "tok", Queue: 0, Workers: 2, BodyTimeout: 500 * time.Millisecond})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, s, time.Second) }()
	defer func() {
		cancel()
		<-done
	}()
	addr := ln.Addr().String()
	body := execRequestJSON("print(1)", 1, false, [2]string{"", "1"})

	// Two trickling clients take both slots (no queue).
	var wg sync.WaitGroup
	codes := make([]string, 2)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = trickle(t, addr, body, 100*time.Millisecond)
		}()
	}
	// Once they are admitted, an honest client is refused...
	deadline := time.Now().Add(5 * time.Second)
	for {
		busy, waiting := s.adm.load()
		if busy+waiting >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	start := time.Now()
	// ... until the bound passes; then it is served.
	var last int
	for time.Since(start) < 10*time.Second {
		req, _ := http.NewRequest("POST", "http://"+addr+"/api/execute_code", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer tok")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		last = resp.StatusCode
		if last == http.StatusOK {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if last != http.StatusOK {
		t.Fatalf("the honest client got %d for %v", last, time.Since(start))
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the honest client waited %v; the body bound is 500 ms", d)
	}
	wg.Wait()
	for i, c := range codes {
		if !strings.HasPrefix(c, "HTTP/1.1 408") && c != "closed" {
			t.Errorf("trickling client %d got %q; want 408 or a closed connection", i, c)
		}
	}
	if busy, waiting := s.adm.load(); busy+waiting != 0 {
		t.Errorf("%d busy and %d waiting after every request ended", busy, waiting)
	}
}

// trickle sends a request whose body arrives one byte per interval and
// returns the status line it gets, or "closed".
func trickle(t *testing.T, addr, body string, interval time.Duration) string {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Error(err)
		return ""
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /api/execute_code HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer tok\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body))
	got := make(chan string, 1)
	go func() {
		buf := make([]byte, 64)
		n, _ := c.Read(buf)
		if n == 0 {
			got <- "closed"
			return
		}
		got <- strings.SplitN(string(buf[:n]), "\r\n", 2)[0]
	}()
	for i := 0; i < len(body); i++ {
		select {
		case s := <-got:
			return s
		case <-time.After(interval):
		}
		if _, err := c.Write([]byte{body[i]}); err != nil {
			break
		}
	}
	select {
	case s := <-got:
		return s
	case <-time.After(5 * time.Second):
		return "no answer"
	}
}
