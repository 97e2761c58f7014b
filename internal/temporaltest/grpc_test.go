package temporaltest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"time"
)

// describeNamespace calls the frontend's DescribeNamespace over gRPC with the
// standard library alone (HTTP/2 without TLS; the request is one protobuf
// string field), so the autobuild module needs no gRPC dependency to check
// that the server answers. It returns the call's grpc-status.
func describeNamespace(hostport, namespace string) (string, error) {
	msg := append([]byte{0x0a, byte(len(namespace))}, namespace...) // field 1, length-delimited
	frame := make([]byte, 5, 5+len(msg))
	binary.BigEndian.PutUint32(frame[1:], uint32(len(msg)))
	frame = append(frame, msg...)

	protocols := new(http.Protocols)
	protocols.SetUnencryptedHTTP2(true)
	client := &http.Client{Transport: &http.Transport{Protocols: protocols}, Timeout: 10 * time.Second}
	req, err := http.NewRequest(http.MethodPost,
		"http://"+hostport+"/temporal.api.workflowservice.v1.WorkflowService/DescribeNamespace", bytes.NewReader(frame))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/grpc")
	req.Header.Set("TE", "trailers")
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("DescribeNamespace on %s: %w", hostport, err)
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return "", fmt.Errorf("DescribeNamespace on %s: %w", hostport, err)
	}
	if st := resp.Trailer.Get("Grpc-Status"); st != "" {
		return st, nil
	}
	return resp.Header.Get("Grpc-Status"), nil // a trailers-only answer
}
