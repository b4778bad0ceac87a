-- Issue 40, alerts for followers: anyone following a runner asks for an e-mail or a web push
-- message at the points they choose (start, each split, finish).
--
-- The VAPID key pair of the server (RFC 8292), made once and shared by every node.
CREATE TABLE alert_vapid (
  id integer PRIMARY KEY CHECK (id = 1),
  public_key text NOT NULL,
  private_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A follower confirms an e-mail address once; its alerts go out only after that.
CREATE TABLE alert_emails (
  email text PRIMARY KEY,
  token text NOT NULL UNIQUE,
  confirmed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One follower's alerts about one runner (its tracking key) on one channel. `token` is the
-- one-click unsubscribe of every message.
CREATE TABLE alert_subscriptions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tracking_key text NOT NULL,
  channel text NOT NULL CHECK (channel IN ('email', 'push')),
  email text,
  endpoint text,
  p256dh text,
  auth text,
  points text[] NOT NULL,
  lng text NOT NULL DEFAULT 'fr' CHECK (lng IN ('en', 'fr')),
  token text NOT NULL UNIQUE,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((channel = 'email' AND email IS NOT NULL) OR (channel = 'push' AND endpoint IS NOT NULL))
);
CREATE INDEX alert_subscriptions_key_idx ON alert_subscriptions (tracking_key) WHERE active;
-- Subscribing again replaces the choice of points rather than doubling the messages.
CREATE UNIQUE INDEX alert_subscriptions_target_idx
  ON alert_subscriptions (tracking_key, channel, coalesce(email, endpoint)) WHERE active;

-- Once per passing: the first node to insert (subscription, point) sends; a correction changes
-- `time_ms` and sends one corrected message. Several nodes, one row.
CREATE TABLE alert_sends (
  subscription_id uuid NOT NULL REFERENCES alert_subscriptions(id) ON DELETE CASCADE,
  point_key text NOT NULL,
  time_ms bigint NOT NULL,
  corrections integer NOT NULL DEFAULT 0,
  read_at_ms bigint,
  sent_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (subscription_id, point_key)
);

-- A runner turns alerts about themselves off (their participants' accounts, 0065).
ALTER TABLE users ADD COLUMN alerts_off boolean NOT NULL DEFAULT false;
