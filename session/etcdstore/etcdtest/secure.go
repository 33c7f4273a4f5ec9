package etcdtest

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.etcd.io/etcd/client/pkg/v3/transport"
)

// Security secures a cluster that StartSecure starts.
type Security struct {
	// TLS makes the members serve clients over TLS only, with a
	// certificate of a CA of the test's own, and require a client
	// certificate signed by that CA (Cluster.TLSFiles).
	TLS bool
	// Password, when set, turns etcd's authentication on: clients log in
	// as user root with this password.
	Password string
}

// TLSFiles are the PEM files of a cluster started with TLS: the CA that
// signed the members' certificates, and a client certificate and key
// that the members accept.
type TLSFiles struct {
	CA, Cert, Key string
}

// StartSecure starts a cluster of n members, as Start does, secured as
// sec says; Client and Store connect to it as the root user over TLS.
func StartSecure(t testing.TB, n int, sec Security) *Cluster {
	t.Helper()
	c := startWith(t, n, sec)
	if sec.Password != "" {
		// Authentication is turned on through a client that does not log
		// in yet; from then on clients log in as root.
		c.password = ""
		cli := c.Client(t)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := cli.RoleAdd(ctx, "root"); err != nil {
			t.Fatal(err)
		}
		if _, err := cli.UserAdd(ctx, "root", sec.Password); err != nil {
			t.Fatal(err)
		}
		if _, err := cli.UserGrantRole(ctx, "root", "root"); err != nil {
			t.Fatal(err)
		}
		if _, err := cli.AuthEnable(ctx); err != nil {
			t.Fatal(err)
		}
		c.password = sec.Password
	}
	return c
}

// TLSFiles returns the files of a cluster started with TLS.
func (c *Cluster) TLSFiles() TLSFiles { return c.tlsFiles }

// clientTLS returns the TLS configuration of the cluster's clients; nil
// without TLS.
func (c *Cluster) clientTLS(t testing.TB) *tls.Config {
	t.Helper()
	if c.tlsFiles.CA == "" {
		return nil
	}
	info := transport.TLSInfo{TrustedCAFile: c.tlsFiles.CA, CertFile: c.tlsFiles.Cert, KeyFile: c.tlsFiles.Key}
	cfg, err := info.ClientConfig()
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// writeCerts makes a CA, a certificate of 127.0.0.1 for the members and
// a client certificate, all signed by the CA, writes them as PEM files to
// dir, and returns the members' TLS settings and the clients' files.
func writeCerts(t testing.TB, dir string) (transport.TLSInfo, TLSFiles) {
	t.Helper()
	now := time.Now()
	caKey := newKey(t)
	ca := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "etcdtest CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	leaf := func(serial int64, name string, usage x509.ExtKeyUsage) (certFile, keyFile string) {
		key := newKey(t)
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: name},
			NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage},
			IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		keyDER, err := x509.MarshalECPrivateKey(key)
		if err != nil {
			t.Fatal(err)
		}
		certFile, keyFile = filepath.Join(dir, name+".pem"), filepath.Join(dir, name+"-key.pem")
		writePEM(t, certFile, "CERTIFICATE", der)
		writePEM(t, keyFile, "EC PRIVATE KEY", keyDER)
		return certFile, keyFile
	}
	caFile := filepath.Join(dir, "ca.pem")
	writePEM(t, caFile, "CERTIFICATE", caDER)
	serverCert, serverKey := leaf(2, "server", x509.ExtKeyUsageServerAuth)
	clientCert, clientKey := leaf(3, "client", x509.ExtKeyUsageClientAuth)
	server := transport.TLSInfo{CertFile: serverCert, KeyFile: serverKey, TrustedCAFile: caFile, ClientCertAuth: true}
	return server, TLSFiles{CA: caFile, Cert: clientCert, Key: clientKey}
}

// newKey returns a new P-256 key.
func newKey(t testing.TB) *ecdsa.PrivateKey {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// writePEM writes one PEM block of the type to path.
func writePEM(t testing.TB, path, typ string, der []byte) {
	t.Helper()
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
}
