"""`python -m voice_agent.cli …` is `voice-agent …`."""

import sys

from voice_agent.cli import main

sys.exit(main())
