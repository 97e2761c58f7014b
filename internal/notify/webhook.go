package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// Webhook POSTs each document as JSON to a URL (Slack's and Mattermost's
// incoming webhooks show its text). A refused or failed delivery is tried
// again after each of Backoff's waits; then it is given up, never failing
// the run.
type Webhook struct {
	URL    string
	Client *http.Client
	// Backoff are the waits before the second, third, … try (1 s, 5 s,
	// 30 s when nil).
	Backoff []time.Duration
	// Timeout bounds each try (10 s when 0).
	Timeout time.Duration
}

// Name is the URL with everything that may be a secret redacted: its
// path, query and user.
func (w *Webhook) Name() string { return "webhook " + Redact(w.URL) }

// Send POSTs d, retrying with back-off.
func (w *Webhook) Send(ctx context.Context, d Document) error {
	body, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("encoding the notification: %w", err)
	}
	backoff := w.Backoff
	if backoff == nil {
		backoff = []time.Duration{time.Second, 5 * time.Second, 30 * time.Second}
	}
	var last error
	for try := 0; try <= len(backoff); try++ {
		if try > 0 {
			t := time.NewTimer(backoff[try-1])
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return fmt.Errorf("%w (last try: %v)", ctx.Err(), last)
			}
		}
		last = w.post(ctx, body)
		if last == nil {
			return nil
		}
	}
	return fmt.Errorf("%d tries: %w", len(backoff)+1, last)
}

func (w *Webhook) post(ctx context.Context, body []byte) error {
	timeout := w.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(body))
	if err != nil {
		return redactErr(err, w.URL)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "autobuild-notify/1")
	client := w.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return redactErr(err, w.URL)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("the webhook answered %s", resp.Status)
	}
	return nil
}

// redactErr keeps an error's meaning without the URL it names: net/http
// errors quote the whole URL, token included.
func redactErr(err error, raw string) error {
	var ue *url.Error
	if e, ok := err.(*url.Error); ok {
		ue = e
		return fmt.Errorf("%s %s: %w", ue.Op, Redact(raw), ue.Err)
	}
	return fmt.Errorf("%s", bytes.ReplaceAll([]byte(err.Error()), []byte(raw), []byte(Redact(raw))))
}

// Redact shows a URL without its secrets: scheme and host only, the rest
// replaced ("https://hooks.slack.com/…"). Text that is no URL is hidden
// whole.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(redacted)"
	}
	out := u.Scheme + "://" + u.Host
	if u.Path != "" && u.Path != "/" || u.RawQuery != "" {
		out += "/…"
	}
	return out
}
