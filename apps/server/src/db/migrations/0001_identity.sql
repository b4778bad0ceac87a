-- Identity (issue 4): the built-in identity provider's users, organisation roles, one-time codes,
-- refresh tokens, signing keys, and the e-mail outbox.
CREATE TABLE users (
  sub uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Lower-cased. Unique among local accounts; external accounts (`issuer|sub`) may repeat one.
  email text NOT NULL,
  external_key text UNIQUE,
  password_hash text,
  email_verified boolean NOT NULL DEFAULT false,
  -- Platform staff granted in the database (besides PLATFORM_STAFF_EMAILS).
  platform_staff boolean NOT NULL DEFAULT false,
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  gender text CHECK (gender IN ('M', 'F', 'X')),
  birth_date date,
  nationality text,
  club text NOT NULL DEFAULT '',
  profile_picture text,
  lng text NOT NULL DEFAULT 'fr' CHECK (lng IN ('fr', 'en')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_local_email_idx ON users (email) WHERE external_key IS NULL;

CREATE TABLE organisation_members (
  organisation_id uuid NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  user_sub uuid NOT NULL REFERENCES users(sub) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('owner', 'staff', 'timekeeper')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organisation_id, user_sub)
);
CREATE INDEX organisation_members_user_idx ON organisation_members (user_sub);

-- E-mail verification and password-reset codes; only their SHA-256 is kept.
CREATE TABLE one_time_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_sub uuid NOT NULL REFERENCES users(sub) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('verify', 'reset')),
  code_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX one_time_codes_user_idx ON one_time_codes (user_sub, purpose);

-- Rotating refresh tokens (hashed). A rotated token presented again revokes its whole family.
CREATE TABLE refresh_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_sub uuid NOT NULL REFERENCES users(sub) ON DELETE CASCADE,
  family_id uuid NOT NULL,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  rotated_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);

-- ES256 signing keys, shared by every node; generation 1 is created once (ON CONFLICT DO NOTHING).
CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  generation integer NOT NULL UNIQUE,
  alg text NOT NULL DEFAULT 'ES256',
  private_jwk jsonb NOT NULL,
  public_jwk jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE outbox (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  recipient text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz
);
CREATE INDEX outbox_created_idx ON outbox (created_at);
