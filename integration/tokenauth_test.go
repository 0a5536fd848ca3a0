package integration

import (
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The bearer-token scheme of Docker Hub, ghcr.io and quay.io: the registry
// answers a request without a token with 401 and a challenge naming a realm;
// the client gets a JWT there (anonymously by GET, with credentials by OAuth2
// password-grant POST or GET with basic auth) and retries with it. The
// registry checks the token's signature against its rootcertbundle.
// Reference: distribution v3.1.2 registry/auth/token (ClaimSet, Verify).

const (
	tokenIssuer  = "shoal-test-token-service"
	tokenService = "shoal-test-registry"
	// Anonymous clients may pull repositories under publicPrefix; everything
	// else, and every push, needs registryUser's credentials.
	publicPrefix     = "public/"
	registryUser     = "alice"
	registryPassword = "wonderland"
)

// tokenServer issues the registry's bearer tokens: ES256 JWTs whose x5c
// header carries its self-signed signing certificate.
type tokenServer struct {
	srv     *httptest.Server
	key     *ecdsa.PrivateKey
	certDER []byte
	// Realm is the token endpoint as the registry's challenge names it.
	Realm string
	// CertPath is the signing certificate (PEM): the registry's rootcertbundle.
	CertPath string

	// What was asked for: anonymous GETs, GETs with basic auth, password
	// grants (POST), and refusals (bad credentials).
	anonymous, basic, oauth, refused atomic.Int64
}

// startTokenServer starts a token service on loopback, stopped with the test.
func startTokenServer(t *testing.T) *tokenServer {
	t.Helper()
	// The signing certificate is the registry's root bundle.
	key, _, der := newCA(t, tokenIssuer)
	ts := &tokenServer{key: key, certDER: der, CertPath: filepath.Join(shortTempDir(t, "token-"), "token-signer.pem")}
	writePEM(t, ts.CertPath, "CERTIFICATE", der)
	ts.srv = httptest.NewServer(ts)
	t.Cleanup(ts.srv.Close)
	_, port, _ := net.SplitHostPort(ts.srv.Listener.Addr().String())
	// Not 127.0.0.1: go-containerregistry clients refuse a loopback-IP realm.
	ts.Realm = "http://localhost:" + port + "/token"
	return ts
}

func (ts *tokenServer) stop() { ts.srv.Close() }

// ServeHTTP answers GET /token?service=&scope= (basic auth optional) and the
// OAuth2 password grant POST /token, as Docker Hub's auth service does.
func (ts *tokenServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/token" {
		http.NotFound(w, r)
		return
	}
	var (
		user, password, service string
		scopes                  []string
		withCreds               bool
	)
	switch r.Method {
	case http.MethodGet:
		q := r.URL.Query()
		service, scopes = q.Get("service"), q["scope"]
		user, password, withCreds = r.BasicAuth()
		if withCreds {
			ts.basic.Add(1)
		} else {
			ts.anonymous.Add(1)
		}
	case http.MethodPost:
		if err := r.ParseForm(); err != nil {
			oauthError(w, http.StatusBadRequest, "invalid_request")
			return
		}
		if gt := r.PostForm.Get("grant_type"); gt != "password" {
			// No refresh tokens are handed out, so there is nothing else to grant.
			oauthError(w, http.StatusBadRequest, "unsupported_grant_type")
			return
		}
		service, scopes = r.PostForm.Get("service"), r.PostForm["scope"]
		user, password, withCreds = r.PostForm.Get("username"), r.PostForm.Get("password"), true
		ts.oauth.Add(1)
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	if service != tokenService {
		oauthError(w, http.StatusBadRequest, "invalid_request")
		return
	}
	if withCreds && !validCredentials(user, password) {
		ts.refused.Add(1)
		w.Header().Set("WWW-Authenticate", `Basic realm="shoal-test"`)
		oauthError(w, http.StatusUnauthorized, "invalid_grant")
		return
	}
	if !withCreds {
		user = ""
	}
	token, err := ts.sign(user, grant(user != "", scopes))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"token":        token,
		"access_token": token,
		"expires_in":   300,
		"issued_at":    time.Now().UTC().Format(time.RFC3339),
	})
}

func validCredentials(user, password string) bool {
	return subtle.ConstantTimeCompare([]byte(user), []byte(registryUser)) == 1 &&
		subtle.ConstantTimeCompare([]byte(password), []byte(registryPassword)) == 1
}

func oauthError(w http.ResponseWriter, status int, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": code})
}

// resourceActions is one entry of a token's access claim.
type resourceActions struct {
	Type    string   `json:"type"`
	Name    string   `json:"name"`
	Actions []string `json:"actions"`
}

// grant applies the policy to the requested scopes
// ("repository:public/app:pull,push", several per parameter, space-separated):
// an authenticated user gets what they ask; anyone may pull under
// publicPrefix; nothing else.
func grant(authenticated bool, scopes []string) []resourceActions {
	var access []resourceActions
	for _, scope := range strings.Fields(strings.Join(scopes, " ")) {
		typ, rest, ok := strings.Cut(scope, ":")
		i := strings.LastIndex(rest, ":")
		if !ok || i < 0 || typ != "repository" {
			continue
		}
		name, actions := rest[:i], strings.Split(rest[i+1:], ",")
		var granted []string
		for _, a := range actions {
			if authenticated || (a == "pull" && strings.HasPrefix(name, publicPrefix)) {
				granted = append(granted, a)
			}
		}
		if len(granted) > 0 {
			access = append(access, resourceActions{Type: typ, Name: name, Actions: granted})
		}
	}
	return access
}

// sign builds the JWS by hand (no JWT library is vendored): base64url header
// and claims, ES256 signature as r||s, 32 bytes each.
func (ts *tokenServer) sign(subject string, access []resourceActions) (string, error) {
	if access == nil {
		access = []resourceActions{}
	}
	now := time.Now()
	jti := make([]byte, 16)
	rand.Read(jti)
	header, err := json.Marshal(map[string]any{
		"typ": "JWT",
		"alg": "ES256",
		"x5c": []string{base64.StdEncoding.EncodeToString(ts.certDER)},
	})
	if err != nil {
		return "", err
	}
	claims, err := json.Marshal(map[string]any{
		"iss":    tokenIssuer,
		"sub":    subject,
		"aud":    tokenService,
		"exp":    now.Add(5 * time.Minute).Unix(),
		"nbf":    now.Add(-10 * time.Second).Unix(),
		"iat":    now.Unix(),
		"jti":    base64.RawURLEncoding.EncodeToString(jti),
		"access": access,
	})
	if err != nil {
		return "", err
	}
	input := base64.RawURLEncoding.EncodeToString(header) + "." + base64.RawURLEncoding.EncodeToString(claims)
	sum := sha256.Sum256([]byte(input))
	r, s, err := ecdsa.Sign(rand.Reader, ts.key, sum[:])
	if err != nil {
		return "", err
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return input + "." + base64.RawURLEncoding.EncodeToString(sig), nil
}

// startTokenRegistry is a registry that, like the public ones, challenges
// every client without a bearer token and trusts the test's token service:
// anonymous pulls under public/, everything else as registryUser.
func startTokenRegistry(t *testing.T) *testRegistry {
	t.Helper()
	requireEnv(t)
	ts := startTokenServer(t)
	auth := fmt.Sprintf(`auth:
  token:
    realm: %s
    service: %s
    issuer: %s
    rootcertbundle: %s
`, ts.Realm, tokenService, tokenIssuer, ts.CertPath)
	return &testRegistry{
		upstream:  startRegistryWith(t, auth),
		kind:      "token",
		user:      registryUser,
		password:  registryPassword,
		pullFlags: []string{"--plain-http"},
		tokens:    ts,
	}
}
